import type { ScheduleId } from '../src/platform/config.js';
import type { Deps } from '../src/platform/deps.js';
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

/** Upserts every scheduler (idempotent). Returns the ids it had to create. */
export async function ensureSchedules(deps: Deps, onlyMissing = false): Promise<ScheduleId[]> {
  const created: ScheduleId[] = [];
  for (const s of schedules) {
    const queue = deps.queues[s.job.queue];
    if (onlyMissing && (await queue.getJobScheduler(s.id))) continue;
    await queue.upsertJobScheduler(s.id, { every: deps.config.schedules.everyMs[s.id] }, { name: s.job.name, data: {}, opts: s.job.options(deps.config) });
    created.push(s.id);
  }
  return created;
}

/**
 * Keeps the schedulers alive: Redis restarted without its data (or flushed) loses them, and with them every
 * sweep. Every SCHEDULE_CHECK_MS each worker process re-creates the ones that are missing. Returns a stop function.
 */
export function watchSchedules(deps: Deps): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    ensureSchedules(deps, true)
      .then((created) => {
        if (created.length) deps.logger.warn({ created }, 'job schedulers were missing (Redis lost its data?); re-created');
      })
      .catch((err: Error) => deps.logger.warn({ err: err.message }, 'could not check job schedulers; will retry'))
      .finally(() => (running = false));
  }, deps.config.schedules.checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
