import { now } from '../src/platform/clock.js';
import type { ScheduleId } from '../src/platform/config.js';
import type { Deps } from '../src/app/deps.js';
import { jobs, type JobDefinition } from '../src/platform/queues.js';

/** Repeating maintenance jobs, run by BullMQ job schedulers: once per interval across every process. */
export const schedules: Array<{ id: ScheduleId; job: JobDefinition }> = [
  { id: 'sweep-expired-sessions', job: jobs.sweepExpiredSessions },
  { id: 'sweep-expired-keys', job: jobs.sweepExpiredKeys },
  { id: 'relay-outbox', job: jobs.relayOutbox },
  { id: 'requeue-stuck-work', job: jobs.requeueStuckWork },
  { id: 'maintain-partitions', job: jobs.maintainPartitions },
  { id: 'prune-webhook-stats', job: jobs.pruneWebhookStats },
  { id: 'sweep-idempotency-keys', job: jobs.sweepIdempotencyKeys },
];

/**
 * A scheduler whose next run is this far past due has lost its chain: BullMQ adds a scheduler's next job when a
 * run starts, in a second call after the run was taken, so a Redis failure between the two leaves no next job
 * until the stalled run is picked up again (lockDuration later). Upserting it again adds the next job.
 */
const chainBroken = (next: number | null | undefined, everyMs: number, checkMs: number) =>
  typeof next === 'number' && now().getTime() - next > Math.max(3 * everyMs, 2 * checkMs);

/** Upserts every scheduler (idempotent). With `onlyBroken`, only those missing or past due. Returns the ids upserted. */
export async function ensureSchedules(deps: Deps, onlyBroken = false): Promise<ScheduleId[]> {
  const upserted: ScheduleId[] = [];
  for (const s of schedules) {
    const queue = deps.queues[s.job.queue];
    const everyMs = deps.config.schedules.everyMs[s.id];
    if (onlyBroken) {
      const existing = await queue.getJobScheduler(s.id);
      if (existing && !chainBroken(existing.next, everyMs, deps.config.schedules.checkMs)) continue;
    }
    await queue.upsertJobScheduler(
      s.id,
      { every: everyMs },
      { name: s.job.name, data: {}, opts: s.job.options(deps.config) },
    );
    upserted.push(s.id);
  }
  return upserted;
}

/**
 * Keeps the schedulers alive: Redis restarted without its data (or flushed) loses them, and with them every
 * sweep; a Redis failure as a run starts breaks a scheduler's chain of runs. Every `check-schedulers` interval
 * each worker process re-creates the ones that are missing or past due. Returns a stop function.
 */
export function watchSchedules(deps: Deps): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    ensureSchedules(deps, true)
      .then((upserted) => {
        if (upserted.length)
          deps.logger.warn(
            { upserted },
            'job schedulers were missing or past due (Redis lost its data or failed as a run started); upserted again',
          );
      })
      .catch((err: Error) => deps.logger.warn({ err: err.message }, 'could not check job schedulers; will retry'))
      .finally(() => (running = false));
  }, deps.config.schedules.checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
