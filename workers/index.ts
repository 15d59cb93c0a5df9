import { hostname } from 'node:os';
import { Worker, type Job, type Queue, type WorkerOptions } from 'bullmq';
import type { Deps } from '../src/app/deps.js';
import { catalogNameOf, everyQueue, type QueueName } from '../src/platform/queues.js';
import { createWorkerRedis, type RedisClient } from '../src/platform/redis.js';
import { tracingState, withJobSpan } from '../src/platform/tracing.js';
import { now } from '../src/platform/clock.js';
import type { Processor } from './processor.js';
import { ensureSchedules, watchSchedules } from './schedules.js';
import { watchWorkers, type JobCounts, type Watched } from './watchdog.js';
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

/** How long a worker, or a connection's QUIT, may take to close with nothing left to wait for before it is dropped. */
const CLOSE_GRACE_MS = 5000;

export interface RunningWorkers {
  workers: Worker[];
  /** Waits for jobs in flight, then closes connections. */
  close(): Promise<void>;
}

export async function startWorkers(deps: Deps, opts: { schedule?: boolean } = {}): Promise<RunningWorkers> {
  const connections = new Set<RedisClient>();
  const quitting: Array<Promise<unknown>> = [];
  // QUIT waits for an answer a wedged connection never gives (docs/adr/0081-stuck-workers.md): after a while the
  // connection is dropped.
  const quit = async (c: RedisClient) => {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)));
    await Promise.race([c.quit(), waited]).catch(() => undefined);
    clearTimeout(timer);
    c.disconnect();
  };
  // Recorded on every job as processedBy: which process ran it (bull-board shows it; the multi-process test counts it).
  const name = `${hostname()}:${process.pid}`;
  const connectionOf = new Map<Worker, RedisClient>();
  /** The jobs each worker started and finished (shared by a watched worker and its replacements). */
  const countsOf = new Map<Worker, JobCounts>();
  const consumeQueue = (
    queueName: QueueName,
    queue: Queue,
    concurrency: number,
    counts: JobCounts = { started: 0, finished: 0 },
  ): Worker => {
    const byName = new Map(processors.filter((p) => p.job.queue === queueName).map((p) => [p.job.name, p]));
    const connection = createWorkerRedis(deps.config.redis);
    connections.add(connection);
    const label = queue.name;
    const run = (job: Job, token: string | undefined) => {
      const processor = byName.get(catalogNameOf(job.name));
      if (!processor) throw new Error(`no processor for job ${job.name} on ${label}`);
      const data = processor.job.schema.parse(job.data);
      if (!tracingState.on) return processor.process(deps, data, job, token);
      const { traceparent } = data as { traceparent?: string };
      // The span is named for the catalog's job, not the job's own name (which carries its event and subscription).
      const traced = {
        queue: label,
        name: processor.job.name,
        id: job.id,
        attempt: job.attemptsMade + 1,
        traceparent,
      };
      return withJobSpan(traced, () => processor.process(deps, data, job, token));
    };
    const worker = new Worker(
      queue.name,
      async (job, token) => {
        counts.started++;
        try {
          return await run(job, token);
        } finally {
          counts.finished++;
        }
      },
      { connection, name, prefix: queue.opts.prefix, concurrency, ...queueSettings[queueName]?.(deps) },
    );
    connectionOf.set(worker, connection);
    countsOf.set(worker, counts);
    worker.on('failed', (job, err) =>
      deps.logger.warn(
        { queue: label, job: job?.name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message },
        'job failed',
      ),
    );
    worker.on('error', (err) => deps.logger.error({ queue: label, err: err.message }, 'worker error'));
    // A drained partition's worker closes long before the process does: its connection goes with it.
    worker.once('closed', () => {
      connectionOf.delete(worker);
      countsOf.delete(worker);
      if (connections.delete(connection)) quitting.push(quit(connection));
    });
    return worker;
  };
  /** A stuck worker is left behind: its close may never end (its connection is wedged), so its connection goes now. */
  const abandon = (worker: Worker) => {
    worker.removeAllListeners().on('error', () => undefined);
    void worker.close(true).catch(() => undefined);
    const connection = connectionOf.get(worker);
    connectionOf.delete(worker);
    countsOf.delete(worker);
    if (connection && connections.delete(connection)) connection.disconnect();
  };
  /**
   * Closes a worker once its jobs in flight have ended. BullMQ's close waits for the worker's blocking connection to
   * end, which a wedged one never does: a worker with no job running that has not closed CLOSE_GRACE_MS later is left
   * behind, as the watchdog leaves a stuck one, instead of holding the shutdown until SHUTDOWN_TIMEOUT_MS.
   */
  const closeWorker = (worker: Worker) =>
    new Promise<void>((resolve) => {
      const counts = countsOf.get(worker) ?? { started: 0, finished: 0 };
      let idleSince: number | null = null;
      const tick = setInterval(() => {
        if (counts.started !== counts.finished) return void (idleSince = null);
        idleSince ??= now().getTime();
        if (now().getTime() - idleSince < CLOSE_GRACE_MS) return;
        deps.logger.warn({ queue: worker.name }, 'a worker with no job running did not close; left behind');
        abandon(worker);
        stop();
      }, 100);
      const stop = () => {
        clearInterval(tick);
        resolve();
      };
      void worker
        .close()
        .catch(() => undefined)
        .finally(stop);
    });

  // Each delivery shard is a queue with the delivery queue's concurrency: a subscription's deliveries are all in
  // one partition, so a busy subscription keeps the throughput it had with one queue (docs/adr/0070-shard-routing.md).
  const consumed = new Set(deps.config.webhooks.workerShards.map((i) => deps.queues.deliveryShards[i]));
  const concurrencyOf = (queue: QueueName) => deps.config.queueConcurrency[queue] ?? 5;
  // Each is watched, and replaced in this list when it is stuck (workers/watchdog.ts).
  const workers: Worker[] = [];
  const watched = everyQueue(deps.queues)
    .filter(({ name, queue }) => name !== 'webhook-delivery' || consumed.has(queue))
    .map(({ name, queue }, i): Watched => {
      const concurrency = concurrencyOf(name);
      const counts = { started: 0, finished: 0 };
      workers[i] = consumeQueue(name, queue, concurrency, counts);
      const replace = () => {
        abandon(workers[i]!);
        workers[i] = consumeQueue(name, queue, concurrency, counts);
      };
      return { queue, concurrency, counts, worker: () => workers[i]!, replace };
    });
  const stopWatchdog = watchWorkers(deps, watched, deps.config.workerStuckAfterMs);
  const retired = await drainRetiredShards(
    deps,
    (queue) => consumeQueue('webhook-delivery', queue, concurrencyOf('webhook-delivery')),
    closeWorker,
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
      await Promise.all([...workers.map(closeWorker), retired.close()]);
      await Promise.all([...quitting, ...[...connections].map(quit)]);
    },
  };
}
