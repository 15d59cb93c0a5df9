import { Worker, type WorkerOptions } from 'bullmq';
import type { Deps } from '../src/platform/deps.js';
import { QUEUE_NAMES, type QueueName } from '../src/platform/queues.js';
import { createWorkerRedis, type Redis } from '../src/platform/redis.js';
import type { Processor } from './processor.js';
import { schedules } from './schedules.js';
import { sweepExpiredSessionsProcessor } from './sweep-expired-sessions.js';
import { sweepExpiredKeysProcessor } from './sweep-expired-keys.js';
import { deliverWebhookProcessor, webhookDeliverySettings } from './deliver-webhook.js';
import { fanOutEventProcessor } from './fan-out-event.js';
import { relayOutboxProcessor } from './relay-outbox.js';
import { requeueStuckWorkProcessor } from './requeue-stuck-work.js';
import { runAgentProcessor } from './run-agent.js';
import { sendMessageProcessor } from './send-message.js';

/** Every processor, by job name. A queue's worker dispatches on the job's name. */
export const processors: Processor[] = [sweepExpiredSessionsProcessor, sweepExpiredKeysProcessor, fanOutEventProcessor, deliverWebhookProcessor, relayOutboxProcessor, sendMessageProcessor, runAgentProcessor, requeueStuckWorkProcessor];

/** Per-queue worker settings (concurrency, lock duration, custom backoff). */
export const queueSettings: Partial<Record<QueueName, (deps: Deps) => Partial<WorkerOptions>>> = {
  'webhook-fanout': () => ({ concurrency: 50 }),
  'webhook-delivery': webhookDeliverySettings,
  // Sends and runs wait on remote servers (SMTP, SMS providers, HTTP runtimes), not on CPU.
  'message-send': () => ({ concurrency: 20 }),
  'agent-runs': () => ({ concurrency: 20 }),
};

export interface RunningWorkers {
  workers: Worker[];
  /** Waits for jobs in flight, then closes connections. */
  close(): Promise<void>;
}

export async function startWorkers(deps: Deps, opts: { schedule?: boolean } = {}): Promise<RunningWorkers> {
  const connections: Redis[] = [];
  const workers = QUEUE_NAMES.map((queue) => {
    const byName = new Map(processors.filter((p) => p.job.queue === queue).map((p) => [p.job.name, p]));
    const connection = createWorkerRedis(deps.config.redis.url);
    connections.push(connection);
    const worker = new Worker(
      queue,
      async (job) => {
        const processor = byName.get(job.name);
        if (!processor) throw new Error(`no processor for job ${job.name} on ${queue}`);
        return processor.process(deps, processor.job.schema.parse(job.data), job);
      },
      { connection, prefix: deps.config.bullmqPrefix, concurrency: 5, ...queueSettings[queue]?.(deps) },
    );
    worker.on('failed', (job, err) => deps.logger.warn({ queue, job: job?.name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message }, 'job failed'));
    worker.on('error', (err) => deps.logger.error({ queue, err: err.message }, 'worker error'));
    return worker;
  });

  if (opts.schedule !== false) {
    for (const s of schedules) {
      await deps.queues[s.job.queue].upsertJobScheduler(s.id, { every: s.everyMs }, { name: s.job.name, data: {}, opts: s.job.options(deps.config) });
    }
  }

  return {
    workers,
    close: async () => {
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
