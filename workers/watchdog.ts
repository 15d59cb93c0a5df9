import type { Queue, Worker } from 'bullmq';
import type { Deps } from '../src/app/deps.js';
import { now } from '../src/platform/clock.js';

// A worker can stop taking jobs for good while it looks alive: after a Redis Cluster node fails, the blocking
// connection BullMQ makes for it may never be answered again (BullMQ issue 4138), and neither BullMQ nor ioredis
// notices. The watchdog judges by what it sees instead: a worker that had room the whole time, took no job and
// finished none, while a job of its queue was ready, is stuck, and a new worker on new connections takes its place
// (docs/decisions.md#stuck-workers).

/** Jobs a worker has started and finished, counted by its processor. */
export interface JobCounts {
  started: number;
  finished: number;
}

/** One queue's worker as the watchdog sees it. */
export interface Watched {
  queue: Queue;
  concurrency: number;
  counts: JobCounts;
  worker(): Worker;
  /** Leaves the worker behind and starts a new one in its place. */
  replace(): void;
}

/**
 * Since when the oldest job ready on `queue` has been ready: its oldest waiting job, or its earliest delayed job if
 * that is due (a stuck worker promotes none: a scheduler's next run, a throttled delivery); null: none, or the queue
 * is paused. A delayed job BullMQ is retrying is left out: its due time is not kept on the job.
 */
async function readySince(queue: Queue): Promise<number | null> {
  const [paused, [waiting], [delayed]] = await Promise.all([
    queue.isPaused(),
    queue.getWaiting(0, 0),
    queue.getDelayed(0, 0),
  ]);
  // A queue paused (bull-board can) keeps its jobs waiting on purpose.
  if (paused) return null;
  const ready = [waiting, delayed?.attemptsMade === 0 ? delayed : undefined].filter((j) => j !== undefined);
  return ready.length ? Math.min(...ready.map((j) => j.timestamp + (j.delay ?? 0))) : null;
}

/**
 * Every `everyMs`, replaces each watched worker that, since the previous check, started and finished no job with
 * room to spare, while a job of its queue has been ready since before that check. Returns a function that stops it.
 */
export function watchWorkers(deps: Deps, watched: Watched[], everyMs: number): () => void {
  const previous = new Map<Watched, JobCounts & { at: number }>();
  let stopped = false;
  const check = async (w: Watched) => {
    const at = now().getTime();
    const seen = previous.get(w);
    const { started, finished } = w.counts;
    previous.set(w, { at, started, finished });
    if (!seen || started !== seen.started || finished !== seen.finished) return;
    if (started - finished >= w.concurrency || w.worker().closing) return;
    const since = await readySince(w.queue);
    if (since === null || since > seen.at) return;
    // Stopped, or the worker started closing, while Redis answered: a worker replaced now would outlive the close.
    if (stopped || w.worker().closing) return;
    deps.logger.warn(
      { queue: w.queue.name, readyForMs: at - since },
      'a worker with room took no job while one was ready; replaced by a new worker on new connections',
    );
    deps.metrics.workersReplaced.inc({ queue: w.queue.name });
    w.replace();
    previous.delete(w);
  };
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    // Redis away: nothing can be judged, and the next check starts again from what it sees then.
    void Promise.all(watched.map((w) => check(w).catch(() => previous.delete(w)))).finally(() => (checking = false));
  }, everyMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
