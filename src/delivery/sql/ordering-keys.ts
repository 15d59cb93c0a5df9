import { prepare, runPrepared, type Conn } from '../../platform/db.js';
import type { ScheduledDelivery } from './rows.js';
import type { Trx } from '../../platform/transaction.js';

// The keys of ordered subscriptions (docs/webhook-retries.md#ordered-delivery). A row of webhook_ordering_keys exists
// while its key has a delivery in flight, its head; the key's other pending deliveries wait queued (no due time,
// so neither the sweep nor a redeliver arms them). The fan-out statement inserts the row (its delivery is
// then the head, armed) or locks it (then its delivery is queued) and takes the delivery's ordering_seq after the
// lock, so one key's order is its producers' commit order. When the head reaches a final state, the advance
// below makes the next one the head.

/** One ordering key of one subscription. */
export interface OrderingKey {
  webhook_id: string;
  ordering_key: string;
}

// The advance, one round trip: sb_hand_off_ordering_keys (migrations/20261124000400_add_ordered_delivery.ts)
// locks the keys' rows, then, in a statement of its own (a new snapshot, holding every producer that committed
// while the lock was awaited), per key: a head still pending keeps the key; otherwise the next pending delivery
// by ordering_seq becomes the head, due now under a new job; none left: the row goes. A subscription no longer
// active stops the key's whole queue at once, as each delivery's job would (recoverSince reopens them).
// Waiting, it locks the keys in one order (inserting a missing row with no head: a reopened delivery's key may
// have none). Not waiting, it skips the rows another transaction holds (a producer not yet committed) and answers
// them as skipped: never waiting while it holds other keys, a batch cannot deadlock with a producer of several.
const HAND_OFF = prepare<ScheduledDelivery & { skipped: boolean }>(
  'hand_off_ordering_keys',
  `SELECT * FROM sb_hand_off_ordering_keys($1::text[], $2::text[], $3::boolean)`,
);

const handOff = (conn: Conn, keys: OrderingKey[], wait: boolean) =>
  runPrepared(conn, HAND_OFF, [keys.map((k) => k.webhook_id), keys.map((k) => k.ordering_key), wait]);

/**
 * The advance of one key, waiting for its lock: the key's next delivery if its head is no longer pending
 * (answered, to be armed after commit); nothing while the head is in flight. Safe to run twice or concurrently:
 * the lock serialises the runs and the second finds the new head pending. In the caller's transaction if given.
 */
export async function advanceOrderingKey(conn: Conn, key: OrderingKey): Promise<ScheduledDelivery | undefined> {
  const [armed] = await handOff(conn, [key], true);
  return armed;
}

const keyId = (k: OrderingKey) => JSON.stringify([k.webhook_id, k.ordering_key]);

/**
 * The advances of many distinct keys: those whose row is free at once, the others (held by a producer, or gone)
 * each on its own, waiting. Answers each key's new head, aligned with `keys`.
 */
export async function advanceOrderingKeys(
  conn: Conn,
  keys: OrderingKey[],
): Promise<Array<ScheduledDelivery | undefined>> {
  const rows = keys.length ? await handOff(conn, keys, false) : [];
  const byKey = new Map(rows.filter((r) => !r.skipped).map((r) => [keyId(r as OrderingKey), r as ScheduledDelivery]));
  const rest = rows.filter((r) => r.skipped) as OrderingKey[];
  const alone = await Promise.all(rest.map((k) => advanceOrderingKey(conn, k)));
  rest.forEach((k, i) => alone[i] && byKey.set(keyId(k), alone[i]));
  return keys.map((k) => byKey.get(keyId(k)));
}

// Driven from the keys, the small table: each key's head is looked up by primary key in the one day partition
// its head_created_at names (pruned as each key comes). The LIMIT 1 changes no answer (the key is unique); it keeps
// the planner from turning the lookup into an anti-join, which may hash every day partition's pending deliveries
// to compare a handful of keys: a sequential scan of the whole day while the day has no statistics
// (docs/plans.md#the-stranded-key-check). Prepared, as the sweep's other read, and like it planned without
// sequential scans (src/platform/db.ts, runPrepared).
const FIND_STRANDED_KEYS = prepare<OrderingKey>(
  'find_stranded_ordering_keys',
  `SELECT k.webhook_id, k.ordering_key FROM webhook_ordering_keys k
     LEFT JOIN LATERAL (SELECT d.status FROM webhook_deliveries d
                         WHERE d.id = k.head_id AND d.created_at = k.head_created_at LIMIT 1) head ON true
    WHERE k.updated_at < now() - $1::int * interval '1 millisecond' AND head.status IS DISTINCT FROM 'pending'
    LIMIT $2`,
  { seqScan: false },
);

/**
 * Keys whose head is final (or absent) for more than `overdueMs`: a process ended between a head's transition
 * and its advance. The sweep hands them off.
 */
export function findStrandedOrderingKeys(conn: Conn, overdueMs: number, limit: number): Promise<OrderingKey[]> {
  return runPrepared(conn, FIND_STRANDED_KEYS, [overdueMs, limit]);
}

/**
 * A subscription made unordered: its pending ordered deliveries become unordered, the queued ones due now (the
 * sweep or the caller arms them), and its keys go. Answers the deliveries made due.
 */
export async function releaseOrderingKeys(trx: Trx, webhookId: string): Promise<ScheduledDelivery[]> {
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
