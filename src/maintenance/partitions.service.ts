import { now } from '../platform/clock.js';
import type { Deps } from '../app/deps.js';
import {
  createDayPartition,
  dayStart,
  detachConcurrently,
  dropDetached,
  finalizeDetach,
  findDetachedPartitions,
  countWaitingDeliveries,
  hasPendingDeliveries,
  listPartitions,
  partitionName,
  PARTITIONED_TABLES,
  type PartitionedTable,
} from './partitions.repository.js';
import { keepFillingStatisticsFresh } from './partition-statistics.js';
import { DAY_MS, retainedSince } from './retention.js';
import { pruneKeyUsage } from './key-usage-retention.js';

// Retention by whole days. Each run (the maintain-partitions job, hourly; a newly created scheduler runs at once):
//   1. creates the day partitions of today and the next PARTITION_DAYS_AHEAD days (an insert never misses one);
//   2. finishes what an interrupted run left: a detach to FINALIZE, a detached table to drop;
//   3. keeps the statistics of the days that are filling fresh (partition-statistics.ts, docs/plans.md);
//   4. drops, oldest first, each day entirely older than the retention cutoff: its attempts, then its deliveries
//      unless one of them is still pending (they wait for it, and the day's events with them), then its events.
//      A delivery that waits for a consumer's poll does not hold its day: it goes with it, unread, and is counted
//      (droppedUnpolled).
// Every step is one partition and is safe to repeat, so a run killed at any point resumes on the next.

export const PARTITION_DAYS_AHEAD = 14;

export interface MaintenanceResult {
  created: number;
  dropped: string[];
  /** Expired days kept because a delivery in them is still pending. */
  keptForPending: string[];
  /** Deliveries of poll subscriptions dropped with their day, never polled. */
  droppedUnpolled: number;
  /** Filling days given their autoanalyze settings, and those analyzed by this run. */
  configured: string[];
  analyzed: string[];
}

export async function ensureDayPartitions(deps: Deps, from: Date, days: number): Promise<number> {
  let created = 0;
  for (const table of PARTITIONED_TABLES) {
    const existing = new Set((await listPartitions(deps.db, table)).map((p) => p.name));
    for (let i = 0; i <= days; i++) {
      const day = new Date(dayStart(from).getTime() + i * DAY_MS);
      if (existing.has(partitionName(table, day))) continue;
      await createDayPartition(deps.db, table, day);
      created += 1;
    }
  }
  return created;
}

async function dropPartition(deps: Deps, table: PartitionedTable, name: string): Promise<void> {
  await detachConcurrently(deps.db, table, name);
  await dropDetached(deps.db, name);
}

export async function maintainPartitions(deps: Deps): Promise<MaintenanceResult> {
  const at = now();
  const created = await ensureDayPartitions(deps, at, PARTITION_DAYS_AHEAD);
  const statistics = await keepFillingStatisticsFresh(deps, at);
  const result: MaintenanceResult = { created, dropped: [], keptForPending: [], droppedUnpolled: 0, ...statistics };

  for (const table of PARTITIONED_TABLES) {
    for (const p of (await listPartitions(deps.db, table)).filter((x) => x.detachPending)) {
      await finalizeDetach(deps.db, table, p.name);
      await dropDetached(deps.db, p.name);
      result.dropped.push(p.name);
    }
    for (const name of await findDetachedPartitions(deps.db, table)) {
      await dropDetached(deps.db, name);
      result.dropped.push(name);
    }
  }

  // A day [D, D + 1) is expired when its end is not after the cutoff: every row in it is past retention.
  const cutoff = retainedSince(deps.config).getTime();
  const expired = async (table: PartitionedTable) =>
    (await listPartitions(deps.db, table)).filter((p) => p.day.getTime() + DAY_MS <= cutoff);

  for (const p of await expired('webhook_attempts')) {
    await dropPartition(deps, 'webhook_attempts', p.name);
    result.dropped.push(p.name);
  }
  const keptDays = new Set<number>();
  for (const p of await expired('webhook_deliveries')) {
    if (await hasPendingDeliveries(deps.db, p.name)) {
      keptDays.add(p.day.getTime());
      result.keptForPending.push(p.name);
      continue;
    }
    result.droppedUnpolled += await countWaitingDeliveries(deps.db, p.name);
    await dropPartition(deps, 'webhook_deliveries', p.name);
    result.dropped.push(p.name);
  }
  // Key usage hours are statistics under the same retention as the events (key-usage-retention.ts).
  await pruneKeyUsage(deps);
  // A pending delivery still needs its event to be sent.
  for (const p of (await expired('events')).filter((x) => !keptDays.has(x.day.getTime()))) {
    await dropPartition(deps, 'events', p.name);
    result.dropped.push(p.name);
  }
  return result;
}
