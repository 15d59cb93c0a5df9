import type { Queue, Worker } from 'bullmq';
import type { Deps } from '../src/app/deps.js';
import { now } from '../src/platform/clock.js';

// A worker can stop taking jobs for good while it looks alive: after a Redis Cluster node fails, the blocking
// connection BullMQ makes for it may never be answered again (https://github.com/taskforcesh/bullmq/issues/4138),
// and neither BullMQ nor ioredis notices. The watchdog judges by what it sees instead: a worker that had room the
// whole time, took no job and finished none, while a job of its queue was ready, is stuck, and a new worker on new
// connections takes its place (docs/adr/0081-stuck-workers.md).

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
 * Whether a job of `queue` is ready: one waiting, or its earliest delayed job fallen due (a stuck worker promotes
 * none: a scheduler's next run, a throttled delivery); false while the queue is paused. A delayed job BullMQ is
 * retrying is left out: its due time is not kept on the job. Whether, not since when: a job re-added while it waits
 * (a scheduler upserted again, workers/schedules.ts) is new each time, and its age would never reach a look.
 */
async function hasReadyJob(queue: Queue, at: number): Promise<boolean> {
  const [paused, waiting, [delayed]] = await Promise.all([
    queue.isPaused(),
    queue.getWaitingCount(),
    queue.getDelayed(0, 0),
  ]);
  // A queue paused (bull-board can) keeps its jobs waiting on purpose.
  if (paused) return false;
  if (waiting > 0) return true;
  return delayed !== undefined && delayed.attemptsMade === 0 && delayed.timestamp + (delayed.delay ?? 0) <= at;
}

/**
 * Every `everyMs`, replaces each watched worker that, since the previous check, started and finished no job with
 * room to spare, while a job of its queue was ready at that check and still is. Returns a function that stops it.
 */
export function watchWorkers(deps: Deps, watched: Watched[], everyMs: number): () => void {
  const previous = new Map<Watched, JobCounts & { at: number; ready: boolean }>();
  let stopped = false;
  const check = async (w: Watched) => {
    const at = now().getTime();
    const seen = previous.get(w);
    const { started, finished } = w.counts;
    const ready = await hasReadyJob(w.queue, at);
    previous.set(w, { at, started, finished, ready });
    if (!seen?.ready || !ready || started !== seen.started || finished !== seen.finished) return;
    // Full to its concurrency: busy, not stuck.
    if (started - finished >= w.concurrency) return;
    // Stopped, or the worker started closing, while Redis answered: a worker replaced now would outlive the close.
    if (stopped || w.worker().closing) return;
    deps.logger.warn(
      { queue: w.queue.name, idleForMs: at - seen.at },
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
