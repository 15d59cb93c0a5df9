import { hostname } from 'node:os';
import { Worker, type Job, type Queue, type WorkerOptions } from 'bullmq';
import type { Deps } from '../src/app/deps.js';
import { now } from '../src/platform/clock.js';
import { catalogNameOf, type QueueName } from '../src/platform/queues.js';
import { createWorkerRedis, type RedisClient } from '../src/platform/redis.js';
import { tracingState, withJobSpan } from '../src/platform/tracing.js';
import type { Processor } from './processor.js';
import type { JobCounts } from './watchdog.js';

// The BullMQ workers of one process and their connections: each worker gets a blocking connection of its own,
// counts the jobs it starts and finishes (the watchdog's evidence), and is closed, or left behind when stuck,
// without waiting on a connection that will never answer (docs/adr/0081-stuck-workers.md).

/** How long a worker, or a connection's QUIT, may take to close with nothing left to wait for before it is dropped. */
const CLOSE_GRACE_MS = 5000;

/** Runs one job: the processor its catalog name picks, given its parsed data, in a consumer span when traced. */
async function runJob(deps: Deps, byName: Map<string, Processor>, label: string, job: Job, token?: string) {
  const processor = byName.get(catalogNameOf(job.name));
  if (!processor) throw new Error(`no processor for job ${job.name} on ${label}`);
  const data = processor.job.schema.parse(job.data);
  if (!tracingState.on) return processor.process(deps, data, job, token);
  const { traceparent } = data as { traceparent?: string };
  // The span is named for the catalog's job, not the job's own name (which carries its event and subscription).
  const traced = { queue: label, name: processor.job.name, id: job.id, attempt: job.attemptsMade + 1, traceparent };
  return withJobSpan(traced, () => processor.process(deps, data, job, token));
}

/** QUIT waits for an answer a wedged connection never gives: after a while the connection is dropped. */
async function quit(connection: RedisClient): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)));
  await Promise.race([connection.quit(), waited]).catch(() => undefined);
  clearTimeout(timer);
  connection.disconnect();
}

/**
 * The BullMQ workers of one process. `consume` starts one; `abandon` leaves a stuck one behind (its close may never
 * end, so its connection goes now); `closeWorker` closes one once its jobs in flight have ended; `close` ends the
 * connections still open, after every worker was closed.
 */
export class WorkerPool {
  private readonly connections = new Set<RedisClient>();
  private readonly quitting: Array<Promise<unknown>> = [];
  private readonly connectionOf = new Map<Worker, RedisClient>();
  private readonly countsOf = new Map<Worker, JobCounts>();
  // Recorded on every job as processedBy: which process ran it (bull-board shows it; the multi-process test counts it).
  private readonly name = `${hostname()}:${process.pid}`;

  constructor(
    private readonly deps: Deps,
    private readonly processors: Processor[],
    private readonly settings: Partial<Record<QueueName, (deps: Deps) => Partial<WorkerOptions>>>,
  ) {}

  /** A worker consuming `queue` with the processors of `queueName`; `counts` is shared with its replacements. */
  consume(queueName: QueueName, queue: Queue, concurrency: number, counts: JobCounts = { started: 0, finished: 0 }) {
    const { deps } = this;
    const byName = new Map(this.processors.filter((p) => p.job.queue === queueName).map((p) => [p.job.name, p]));
    const connection = createWorkerRedis(deps.config.redis);
    this.connections.add(connection);
    const label = queue.name;
    const handle = async (job: Job, token: string | undefined) => {
      counts.started++;
      try {
        return await runJob(deps, byName, label, job, token);
      } finally {
        counts.finished++;
      }
    };
    const options = { connection, name: this.name, prefix: queue.opts.prefix, concurrency };
    const worker = new Worker(queue.name, handle, { ...options, ...this.settings[queueName]?.(deps) });
    this.connectionOf.set(worker, connection);
    this.countsOf.set(worker, counts);
    worker.on('failed', (job, err) =>
      deps.logger.warn(
        { queue: label, job: job?.name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message },
        'job failed',
      ),
    );
    worker.on('error', (err) => deps.logger.error({ queue: label, err: err.message }, 'worker error'));
    // A drained shard's worker closes long before the process does: its connection goes with it.
    worker.once('closed', () => {
      const closed = this.forget(worker);
      if (closed) this.quitting.push(quit(closed));
    });
    return worker;
  }

  abandon(worker: Worker): void {
    worker.removeAllListeners().on('error', () => undefined);
    void worker.close(true).catch(() => undefined);
    this.forget(worker)?.disconnect();
  }

  /**
   * BullMQ's close waits for the worker's blocking connection to end, which a wedged one never does: a worker with
   * no job running that has not closed CLOSE_GRACE_MS later is left behind, as the watchdog leaves a stuck one,
   * instead of holding the shutdown until SHUTDOWN_TIMEOUT_MS.
   */
  closeWorker(worker: Worker): Promise<void> {
    return new Promise<void>((resolve) => {
      const counts = this.countsOf.get(worker) ?? { started: 0, finished: 0 };
      let idleSince: number | null = null;
      const tick = setInterval(() => {
        if (counts.started !== counts.finished) return void (idleSince = null);
        idleSince ??= now().getTime();
        if (now().getTime() - idleSince < CLOSE_GRACE_MS) return;
        this.deps.logger.warn({ queue: worker.name }, 'a worker with no job running did not close; left behind');
        this.abandon(worker);
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
  }

  async close(): Promise<void> {
    await Promise.all([...this.quitting, ...[...this.connections].map(quit)]);
  }

  /** Drops a worker's records; answers its connection if it was still open. */
  private forget(worker: Worker): RedisClient | undefined {
    const connection = this.connectionOf.get(worker);
    this.connectionOf.delete(worker);
    this.countsOf.delete(worker);
    return connection && this.connections.delete(connection) ? connection : undefined;
  }
}
