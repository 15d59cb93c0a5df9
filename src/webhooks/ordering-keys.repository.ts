import { prepare, runPrepared, type Conn, type Trx } from '../platform/db.js';
import type { ArmedDelivery } from './deliveries.repository.js';

// The keys of ordered subscriptions (docs/webhooks.md#ordered-delivery). A row of webhook_ordering_keys exists
// while its key has a delivery in flight, its head; the key's other pending deliveries wait queued (no due time,
// so neither the relay sweep nor a redeliver arms them). The fan-out statement inserts the row (its delivery is
// then the head, armed) or locks it (then its delivery is queued) and takes the delivery's ordering_seq after the
// lock, so one key's order is its producers' commit order. When the head reaches a final state, the hand-off
// below makes the next one the head.

/** One ordering key of one subscription. */
export interface OrderingKey {
  webhook_id: string;
  ordering_key: string;
}

// The key's row locked (inserted with no head if absent: a reopened delivery's key may have none), so producers
// of the key and other hand-offs wait for this transaction.
const LOCK_KEY = prepare<never>(
  'lock_ordering_key',
  `INSERT INTO webhook_ordering_keys AS k (webhook_id, ordering_key) VALUES ($1, $2)
   ON CONFLICT (webhook_id, ordering_key) DO UPDATE SET head_id = k.head_id WHERE false`,
);

// In a statement after the lock, so its snapshot holds every producer that committed while the lock was awaited.
// A head still pending keeps the key. Otherwise the next pending delivery by ordering_seq becomes the head, due
// now under a new job; none left: the row goes. A subscription no longer active stops the whole queue at once,
// as each delivery's job would (recoverSince reopens them).
const HAND_OFF = prepare<ArmedDelivery>(
  'hand_off_ordering_key',
  `WITH busy AS (
     SELECT 1 FROM webhook_ordering_keys k JOIN webhook_deliveries d ON d.id = k.head_id AND d.created_at = k.head_created_at
      WHERE k.webhook_id = $1 AND k.ordering_key = $2 AND d.status = 'pending'
   ), inactive AS (
     SELECT 1 FROM webhooks WHERE id = $1 AND (status <> 'active' OR deleted_at IS NOT NULL)
   ), stopped AS (
     UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, completed_at = now(), updated_at = now()
      WHERE webhook_id = $1 AND ordering_key = $2 AND status = 'pending'
        AND NOT EXISTS (SELECT 1 FROM busy) AND EXISTS (SELECT 1 FROM inactive)
   ), next AS (
     SELECT id, created_at FROM webhook_deliveries
      WHERE webhook_id = $1 AND ordering_key = $2 AND status = 'pending'
        AND NOT EXISTS (SELECT 1 FROM busy) AND NOT EXISTS (SELECT 1 FROM inactive)
      ORDER BY ordering_seq LIMIT 1
   ), armed AS (
     UPDATE webhook_deliveries wd SET next_attempt_at = now(), job_seq = wd.job_seq + 1, updated_at = now()
       FROM next WHERE wd.id = next.id AND wd.created_at = next.created_at AND wd.status = 'pending'
     RETURNING wd.id, wd.created_at, wd.job_seq, wd.event, wd.webhook_id, wd.ordering_key
   ), headed AS (
     UPDATE webhook_ordering_keys k SET head_id = armed.id, head_created_at = armed.created_at, updated_at = now()
       FROM armed WHERE k.webhook_id = $1 AND k.ordering_key = $2
   ), idle AS (
     DELETE FROM webhook_ordering_keys
      WHERE webhook_id = $1 AND ordering_key = $2 AND NOT EXISTS (SELECT 1 FROM busy) AND NOT EXISTS (SELECT 1 FROM next)
   )
   SELECT * FROM armed`,
);

/**
 * The hand-off of one key, in the caller's transaction: the next delivery of the key if its head is no longer
 * pending (answered, to be armed after commit); nothing while the head is in flight. Safe to run twice or
 * concurrently: the lock serialises the runs and the second finds the new head pending.
 */
export async function advanceOrderingKey(trx: Trx, key: OrderingKey): Promise<ArmedDelivery | undefined> {
  await runPrepared(trx, LOCK_KEY, [key.webhook_id, key.ordering_key]);
  const [armed] = await runPrepared(trx, HAND_OFF, [key.webhook_id, key.ordering_key]);
  return armed;
}

// Prepared, as the relay sweep's other read: the anti-join probes every day partition's primary key.
const FIND_STRANDED_KEYS = prepare<OrderingKey>(
  'find_stranded_ordering_keys',
  `SELECT k.webhook_id, k.ordering_key FROM webhook_ordering_keys k
    WHERE k.updated_at < now() - $1::int * interval '1 millisecond'
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                       WHERE d.id = k.head_id AND d.created_at = k.head_created_at AND d.status = 'pending')
    LIMIT $2`,
);

/**
 * Keys whose head is final (or absent) for more than `overdueMs`: a process ended between a head's transition
 * and its hand-off. The relay sweep hands them off.
 */
export function findStrandedOrderingKeys(conn: Conn, overdueMs: number, limit: number): Promise<OrderingKey[]> {
  return runPrepared(conn, FIND_STRANDED_KEYS, [overdueMs, limit]);
}

/**
 * A subscription made unordered: its pending ordered deliveries become unordered, the queued ones due now (the
 * relay sweep or the caller arms them), and its keys go. Answers the deliveries made due.
 */
export async function releaseOrderingKeys(trx: Trx, webhookId: string): Promise<ArmedDelivery[]> {
  const { rows } = await trx.raw(
    `WITH released AS (
       UPDATE webhook_deliveries wd SET ordering_key = NULL, next_attempt_at = now(), job_seq = wd.job_seq + 1, updated_at = now()
        WHERE webhook_id = ? AND status = 'pending' AND ordering_key IS NOT NULL AND next_attempt_at IS NULL
       RETURNING wd.id, wd.created_at, wd.job_seq, wd.event, wd.webhook_id, wd.ordering_key
     ), heads AS (
       UPDATE webhook_deliveries SET ordering_key = NULL
        WHERE webhook_id = ? AND status = 'pending' AND ordering_key IS NOT NULL AND next_attempt_at IS NOT NULL
     ), keys AS (
       DELETE FROM webhook_ordering_keys WHERE webhook_id = ?
     )
     SELECT * FROM released`,
    [webhookId, webhookId, webhookId],
  );
  return rows;
}
