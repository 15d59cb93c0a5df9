import { prepare, runPrepared, type Conn } from '../../platform/db.js';
import type { ScheduledDelivery } from './rows.js';

// The status is a literal, and the bound on the due time says it is set, so that even a generic plan uses the
// partial index webhook_deliveries_due (status = 'pending' AND next_attempt_at IS NOT NULL). Prepared:
// planning a query that no partition bound prunes costs a few ms at 49 day partitions; a kept plan 0.6-0.9 ms.
// Both statements run while the service is idle, planned without sequential scans (src/platform/db.ts, runPrepared):
// what they read is the due index's entries and the batch's primary keys, whatever the day's statistics say.
type OverdueDelivery = Pick<ScheduledDelivery, 'id' | 'created_at' | 'job_seq' | 'webhook_id' | 'ordering_key'> & {
  next_attempt_at: Date;
};
// webhook_id: what the delivery's shard is computed from (src/delivery/schedule.ts, shardOf).
const FIND_OVERDUE_DELIVERIES = prepare<OverdueDelivery>(
  'find_overdue_deliveries',
  `SELECT id, created_at, job_seq, webhook_id, ordering_key, next_attempt_at FROM webhook_deliveries
    WHERE status = 'pending' AND next_attempt_at < now() - $1::int * interval '1 millisecond' AND (next_attempt_at, id) > ($2::timestamptz, $3::uuid)
    ORDER BY next_attempt_at, id LIMIT $4`,
  { seqScan: false },
);

/** Pending deliveries more than `overdueMs` past due, oldest first, keyset-paged (the sweep's candidates). */
export async function findOverdueDeliveries(
  conn: Conn,
  overdueMs: number,
  limit: number,
  after?: { dueAt: Date; id: string },
): Promise<OverdueDelivery[]> {
  return runPrepared(conn, FIND_OVERDUE_DELIVERIES, [
    overdueMs,
    after?.dueAt ?? new Date(0),
    after?.id ?? '00000000-0000-0000-0000-000000000000',
    limit,
  ]);
}

const BUMP_JOB_SEQS = prepare<ScheduledDelivery>(
  'bump_delivery_job_seqs',
  `UPDATE webhook_deliveries wd SET job_seq = wd.job_seq + 1, updated_at = now()
     FROM unnest($1::uuid[], $2::timestamptz[], $3::int[]) AS x(id, created_at, seq)
    WHERE wd.id = x.id AND wd.created_at = x.created_at AND wd.status = 'pending' AND wd.job_seq = x.seq
      AND wd.next_attempt_at IS NOT NULL
   RETURNING wd.id, wd.created_at, wd.job_seq, wd.event, wd.webhook_id, wd.ordering_key`,
  { seqScan: false },
);

/**
 * pending → pending, held by a new job: the one its job_seq named is gone (failed, removed, lost with Redis). The
 * sweep's deliveries are due ones, which webhook_deliveries_due holds: a batch of them may be read from it.
 */
export async function bumpDeliveryJobSeqs(
  conn: Conn,
  items: Array<Pick<ScheduledDelivery, 'id' | 'created_at' | 'job_seq'>>,
): Promise<ScheduledDelivery[]> {
  if (items.length === 0) return [];
  return runPrepared(conn, BUMP_JOB_SEQS, [
    items.map((i) => i.id),
    items.map((i) => i.created_at),
    items.map((i) => i.job_seq),
  ]);
}
