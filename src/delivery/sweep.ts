import type { JobState, Queue } from 'bullmq';
import type { Deps } from '../app/deps.js';
import { advanceOrderingKeys, findStrandedOrderingKeys } from './sql/ordering-keys.js';
import { bumpDeliveryJobSeqs, findOverdueDeliveries } from './sql/sweep.js';
import { addDeliveryJobs, deliveryJobId, shardOf, type JobRef } from './schedule.js';
import { retiredShards } from './shard-registry.js';

// The sweep: the repair of whatever an add after commit lost. Every SCHEDULE_INTERVALS_MS (relay-outbox) one
// worker process schedules again the pending deliveries more than WEBHOOK_SWEEP_AFTER_MS past due whose job is gone
// (never added: Redis was away at commit; failed: stalled past its limit, or out of attempts while Postgres was
// away; removed; lost with Redis's data), and advances the ordering keys whose head became final that long ago
// without its advance (its process ended in between).

/** A job that will still run: waiting, delayed, active, or waiting on children. */
const ALIVE: ReadonlySet<JobState | 'unknown'> = new Set<JobState | 'unknown'>([
  'waiting',
  'delayed',
  'active',
  'prioritized',
  'waiting-children',
]);

export interface SweepResult {
  /** Overdue pending deliveries looked at. */
  overdue: number;
  /** Of those, scheduled with a new job because theirs was missing, failed or completed. */
  rescheduled: number;
  /** Ordering keys advanced because their advance was lost. */
  advanced: number;
}

/** Up to 20 batches of 1,000 per run, so a long outage drains within a few runs. */
const SWEEP_BATCH = 1000;
const SWEEP_MAX_BATCHES = 20;

/** One run of the sweep. */
export async function sweepDeliveries(deps: Deps): Promise<SweepResult> {
  const { overdue, rescheduled } = await sweepOverdueDeliveries(deps, deps.config.webhooks.sweepAfterMs);
  const advanced = await sweepStrandedOrderingKeys(deps, deps.config.webhooks.sweepAfterMs, SWEEP_BATCH);
  return { overdue, rescheduled, advanced };
}

/**
 * Pending deliveries more than `overdueMs` past due, oldest first, in batches. A delivery whose job is still alive
 * (a backlog) is left alone; one whose job is gone is scheduled under a new job_seq, so even a failed job that
 * still exists under the old id is replaced.
 */
export async function sweepOverdueDeliveries(
  deps: Deps,
  overdueMs: number,
  batch = SWEEP_BATCH,
  maxBatches = SWEEP_MAX_BATCHES,
): Promise<Omit<SweepResult, 'advanced'>> {
  // A job may still be alive in a shard of an earlier WEBHOOK_SHARDS, being drained (shard-registry.ts).
  const retired = (await retiredShards(deps)).map((p) => deps.queues.deliveryQueueOf(p));
  const result = { overdue: 0, rescheduled: 0 };
  let after: { dueAt: Date; id: string } | undefined;
  for (let i = 0; i < maxBatches; i++) {
    const rows = await findOverdueDeliveries(deps.db, overdueMs, batch, after);
    if (rows.length === 0) break;
    const alive = await Promise.all(rows.map((r) => jobAlive(deps, r, retired)));
    const gone = rows.filter((_r, j) => !alive[j]);
    const bumped = await bumpDeliveryJobSeqs(deps.db, gone);
    await addDeliveryJobs(deps, bumped);
    result.overdue += rows.length;
    result.rescheduled += bumped.length;
    const last = rows[rows.length - 1]!;
    after = { dueAt: last.next_attempt_at, id: last.id };
    if (rows.length < batch) break;
  }
  return result;
}

/**
 * Ordering keys whose head has been final for more than `overdueMs` (its process ended before the advance): each
 * advances now. Answers how many keys got a new head.
 */
export async function sweepStrandedOrderingKeys(deps: Deps, overdueMs: number, limit: number): Promise<number> {
  const keys = await findStrandedOrderingKeys(deps.db, overdueMs, limit);
  const heads = (await advanceOrderingKeys(deps.db, keys)).filter((h) => h !== undefined);
  await addDeliveryJobs(deps, heads);
  return heads.length;
}

/** Whether the job a delivery row names will still run: in its shard, or in a retired one. */
async function jobAlive(deps: Deps, row: JobRef, retired: Queue[]): Promise<boolean> {
  const id = deliveryJobId(row);
  const own = deps.queues.deliveryShards[shardOf(row, deps.config.webhooks.shards)]!;
  for (const queue of [own, ...retired]) {
    if (ALIVE.has(await queue.getJobState(id))) return true;
  }
  return false;
}
