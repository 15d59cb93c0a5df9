import type { Conn } from '../platform/db.js';
import type { BucketDelta, BucketRow, HealthDelta } from './endpoint-stats.js';

// The statements of endpoint health: one upsert per worker batch, reads bounded by the number of buckets.

const at = (ms: number | null) => (ms === null ? null : new Date(ms));

/**
 * Adds a batch's deltas to their buckets and to each subscription's health, in one statement. The inputs come
 * sorted by key (foldSamples), so two workers upserting the same rows lock them in the same order.
 */
export async function addStats(conn: Conn, buckets: BucketDelta[], health: HealthDelta[]): Promise<void> {
  if (buckets.length === 0) return;
  await conn.raw(
    `WITH b AS (
       INSERT INTO webhook_stats AS s (webhook_id, account_id, bucket_start, attempts, successes, by_error, by_status, durations)
       SELECT w, a, t, n, ok, e, st, d FROM unnest(?::text[], ?::text[], ?::timestamptz[], ?::int[], ?::int[], ?::jsonb[], ?::jsonb[], ?::jsonb[]) WITH ORDINALITY AS x (w, a, t, n, ok, e, st, d, i)
        ORDER BY i
       ON CONFLICT (webhook_id, bucket_start) DO UPDATE SET
         attempts = s.attempts + excluded.attempts,
         successes = s.successes + excluded.successes,
         by_error = webhook_stats_merge(s.by_error, excluded.by_error),
         by_status = webhook_stats_merge(s.by_status, excluded.by_status),
         durations = webhook_stats_merge(s.durations, excluded.durations)
     ), h AS (
       INSERT INTO webhook_health AS h (webhook_id, account_id, consecutive_failed_attempts, last_success_at, last_failure_at)
       SELECT w, a, f, ls, lf FROM unnest(?::text[], ?::text[], ?::int[], ?::timestamptz[], ?::timestamptz[]) WITH ORDINALITY AS y (w, a, f, ls, lf, i)
        ORDER BY i
       ON CONFLICT (webhook_id) DO UPDATE SET
         -- A success in the batch restarts the count; otherwise the batch's failures add to it.
         consecutive_failed_attempts = CASE WHEN excluded.last_success_at IS NOT NULL THEN excluded.consecutive_failed_attempts
                                            ELSE h.consecutive_failed_attempts + excluded.consecutive_failed_attempts END,
         last_success_at = greatest(h.last_success_at, excluded.last_success_at),
         last_failure_at = greatest(h.last_failure_at, excluded.last_failure_at)
     )
     SELECT 1`,
    [
      buckets.map((b) => b.webhookId),
      buckets.map((b) => b.accountId),
      buckets.map((b) => new Date(b.bucketStart)),
      buckets.map((b) => b.attempts),
      buckets.map((b) => b.successes),
      buckets.map((b) => JSON.stringify(b.byError)),
      buckets.map((b) => JSON.stringify(b.byStatus)),
      buckets.map((b) => JSON.stringify(b.durations)),
      health.map((h) => h.webhookId),
      health.map((h) => h.accountId),
      health.map((h) => h.failuresSince),
      health.map((h) => at(h.lastSuccessAt)),
      health.map((h) => at(h.lastFailureAt)),
    ] as unknown as string[],
  );
}

/** The buckets of one subscription from `since` on: at most a window's worth (2,016 for 7 days). */
export function findStatBuckets(
  conn: Conn,
  accountId: string,
  webhookId: string,
  since: Date,
): Promise<Array<BucketRow & { bucket_start: Date }>> {
  return conn('webhook_stats')
    .select('bucket_start', 'attempts', 'successes', 'by_error', 'by_status', 'durations')
    .where({ account_id: accountId, webhook_id: webhookId })
    .andWhere('bucket_start', '>=', since)
    .orderBy('bucket_start');
}

export interface HealthRow {
  consecutive_failed_attempts: number;
  last_success_at: Date | null;
  last_failure_at: Date | null;
}

export function findHealth(conn: Conn, accountId: string, webhookId: string): Promise<HealthRow | undefined> {
  return conn('webhook_health')
    .select('consecutive_failed_attempts', 'last_success_at', 'last_failure_at')
    .where({ account_id: accountId, webhook_id: webhookId })
    .first();
}

/** Deletes up to `batch` buckets older than `before` (across accounts: a maintenance sweep). */
export async function pruneStatBuckets(conn: Conn, before: Date, batch: number): Promise<number> {
  const { rowCount } = await conn.raw(
    `DELETE FROM webhook_stats WHERE ctid = ANY (ARRAY(SELECT ctid FROM webhook_stats WHERE bucket_start < ? LIMIT ?))`,
    [before, batch],
  );
  return rowCount ?? 0;
}
