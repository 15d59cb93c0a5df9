import type { Worker, WorkerOptions } from 'bullmq';
import type { Deps } from '../src/app/deps.js';
import { everyQueue, type QueueName } from '../src/platform/queues.js';
import type { Processor } from './processor.js';
import { ensureSchedules, watchSchedules } from './schedules.js';
import { watchWorkers, type Watched } from './watchdog.js';
import { WorkerPool } from './worker-pool.js';
import { drainRetiredShards } from './drain-retired-shards.js';
import { sweepExpiredSessionsProcessor } from './sweep-expired-sessions.js';
import { sweepExpiredKeysProcessor } from './sweep-expired-keys.js';
import { deliverWebhookProcessor, webhookDeliverySettings } from './deliver-webhook.js';
import { deliverWebhooksProcessor } from './deliver-webhooks.js';
import { fanOutEventProcessor } from './fan-out-event.js';
import { maintainPartitionsProcessor } from './maintain-partitions.js';
import { sweepDeliveriesProcessor } from './sweep-deliveries.js';
import { requeueStuckWorkProcessor } from './requeue-stuck-work.js';
import { pruneWebhookStatsProcessor } from './prune-webhook-stats.js';
import { sweepIdempotencyKeysProcessor } from './sweep-idempotency-keys.js';
import { runAgentProcessor } from './run-agent.js';
import { sendMessageProcessor } from './send-message.js';

/** Every processor, by job name. A queue's worker dispatches on the job's name. */
export const processors: Processor[] = [
  sweepExpiredSessionsProcessor,
  sweepExpiredKeysProcessor,
  fanOutEventProcessor,
  deliverWebhookProcessor,
  deliverWebhooksProcessor,
  sweepDeliveriesProcessor,
  sendMessageProcessor,
  runAgentProcessor,
  requeueStuckWorkProcessor,
  pruneWebhookStatsProcessor,
  sweepIdempotencyKeysProcessor,
  maintainPartitionsProcessor,
];

/** Per-queue worker settings beyond concurrency (which comes from config.queueConcurrency). */
export const queueSettings: Partial<Record<QueueName, (deps: Deps) => Partial<WorkerOptions>>> = {
  'webhook-delivery': webhookDeliverySettings,
};

export interface RunningWorkers {
  workers: Worker[];
  /** Waits for jobs in flight, then closes connections. */
  close(): Promise<void>;
}

/** Starts a watched worker per queue this process consumes, the drain of retired shards and the job schedulers. */
export async function startWorkers(deps: Deps, opts: { schedule?: boolean } = {}): Promise<RunningWorkers> {
  const pool = new WorkerPool(deps, processors, queueSettings);
  // Each delivery shard is a queue with the delivery queue's concurrency: a subscription's deliveries are all in
  // one shard, so a busy subscription keeps the throughput it had with one queue (docs/adr/0070-shard-routing.md).
  const consumed = new Set(deps.config.webhooks.workerShards.map((i) => deps.queues.deliveryShards[i]));
  const concurrencyOf = (queue: QueueName) => deps.config.queueConcurrency[queue] ?? 5;
  // Each is watched, and replaced in this list when it is stuck (workers/watchdog.ts).
  const workers: Worker[] = [];
  const watched = everyQueue(deps.queues)
    .filter(({ name, queue }) => name !== 'webhook-delivery' || consumed.has(queue))
    .map(({ name, queue }, i): Watched => {
      const concurrency = concurrencyOf(name);
      const counts = { started: 0, finished: 0 };
      workers[i] = pool.consume(name, queue, concurrency, counts);
      const replace = () => {
        pool.abandon(workers[i]!);
        workers[i] = pool.consume(name, queue, concurrency, counts);
      };
      return { queue, concurrency, counts, worker: () => workers[i]!, replace };
    });
  const stopWatchdog = watchWorkers(deps, watched, deps.config.workerStuckAfterMs);
  const retired = await drainRetiredShards(
    deps,
    (queue) => pool.consume('webhook-delivery', queue, concurrencyOf('webhook-delivery')),
    (worker) => pool.closeWorker(worker),
  );
  let stopWatching = () => undefined as void;
  if (opts.schedule !== false) {
    await ensureSchedules(deps);
    stopWatching = watchSchedules(deps);
  }
  return {
    workers,
    close: async () => {
      stopWatchdog();
      stopWatching();
      await Promise.all([...workers.map((worker) => pool.closeWorker(worker)), retired.close()]);
      await pool.close();
    },
  };
}
