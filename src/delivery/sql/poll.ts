import type { Conn } from '../../platform/db.js';
import { newId } from '../../platform/ids.js';
import type { Trx } from '../../platform/transaction.js';

// The log of a pulled subscription (a poll, docs/adr/0089-poll-destinations.md). Its deliveries are written
// waiting (pending, no due time); a poll that reaches the end of the log appends the oldest waiting ones, giving
// each the next position (webhooks.poll_head + 1, + 2 …) and recording it delivered, with an attempt, in the same
// transaction. Appends of one subscription are serialised by its row's lock, taken in a statement of its own so
// that what follows reads every append committed while it waited: the log only grows at its end, and a reader
// never sees a position filled in behind one it has read.
//
// Every read is bounded by `since`, the retention cutoff: a delivery past it is neither appended nor read again.

/** Pending, with no due time, not queued behind an ordering key: what webhook_deliveries_awaiting_consumer holds. */
const WAITING = `d.status = 'pending' AND d.next_attempt_at IS NULL AND d.ordering_key IS NULL`;

/**
 * Locks the subscription's log for an append and answers its head (the last position given); undefined: no live
 * subscription. FOR NO KEY UPDATE: a fan-out inserting one of its deliveries (its foreign key's KEY SHARE) does
 * not wait on it.
 */
export async function lockPollHead(trx: Trx, accountId: string, webhookId: string): Promise<number | undefined> {
  const { rows } = await trx.raw<{ rows: Array<{ poll_head: number }> }>(
    `SELECT poll_head FROM webhooks WHERE id = ? AND account_id = ? AND deleted_at IS NULL FOR NO KEY UPDATE`,
    [webhookId, accountId],
  );
  return rows[0]?.poll_head;
}

/** A delivery a poll appended: what its attempt row is written from. */
export interface AppendedDelivery {
  id: string;
  created_at: Date;
  event: string;
  /** Its attempts, this one included. */
  attempts: number;
}

/**
 * waiting → succeeded: the first `limit` waiting deliveries in the order they were written (ordering_seq, taken at
 * the fan-out) take the positions after `head`, and the head moves to the last. Run after lockPollHead, in its
 * transaction. A delivery whose transaction commits later than one already appended, though written before it,
 * is appended by a later poll: the log never grows behind a cursor.
 */
export async function appendToLog(
  trx: Trx,
  accountId: string,
  webhookId: string,
  head: number,
  since: Date,
  limit: number,
): Promise<AppendedDelivery[]> {
  const { rows } = await trx.raw<{ rows: AppendedDelivery[] }>(
    `WITH picked AS (
       SELECT d.id, d.created_at, ?::bigint + row_number() OVER (ORDER BY d.ordering_seq) AS position
         FROM webhook_deliveries d
        WHERE d.webhook_id = ? AND d.account_id = ? AND ${WAITING} AND d.created_at >= ?
        ORDER BY d.ordering_seq LIMIT ?
     ), moved AS (
       UPDATE webhook_deliveries wd
          SET status = 'succeeded', poll_position = p.position, attempts = wd.attempts + 1,
              round_attempts = wd.round_attempts + 1, last_error = NULL, last_response_status = NULL,
              completed_at = now(), updated_at = now()
         FROM picked p
        WHERE wd.id = p.id AND wd.created_at = p.created_at AND wd.status = 'pending'
       RETURNING wd.id, wd.created_at, wd.event, wd.attempts, wd.poll_position
     ), w AS (
       UPDATE webhooks SET poll_head = (SELECT max(poll_position) FROM moved)
        WHERE id = ? AND EXISTS (SELECT 1 FROM moved)
     )
     SELECT id, created_at, event, attempts FROM moved ORDER BY poll_position`,
    [head, webhookId, accountId, since, limit, webhookId],
  );
  return rows;
}

/** One entry of the log, with what its envelope is built from. */
export interface LoggedDelivery {
  id: string;
  event: string;
  poll_position: number;
  event_created_at: Date;
  inbox_id: string | null;
  message_id: string | null;
  payload: Record<string, unknown>;
}

/** The entries after position `after`, in position order, at most `limit`. */
export async function readLog(
  conn: Conn,
  accountId: string,
  webhookId: string,
  after: number,
  since: Date,
  limit: number,
): Promise<LoggedDelivery[]> {
  const { rows } = await conn.raw<{ rows: LoggedDelivery[] }>(
    `SELECT d.id, d.event, d.poll_position, e.created_at AS event_created_at, e.inbox_id, e.message_id, e.payload
       FROM webhook_deliveries d
       JOIN events e ON e.id = d.event_id AND e.created_at = d.created_at
      WHERE d.webhook_id = ? AND d.account_id = ? AND d.poll_position > ? AND d.poll_position IS NOT NULL
        AND d.created_at >= ? AND e.created_at >= ?
      ORDER BY d.poll_position LIMIT ?`,
    [webhookId, accountId, after, since, since, limit],
  );
  return rows;
}

/** Whether a delivery still waits to be appended. */
export async function hasWaitingDeliveries(
  conn: Conn,
  accountId: string,
  webhookId: string,
  since: Date,
): Promise<boolean> {
  const { rows } = await conn.raw<{ rows: Array<{ waiting: boolean }> }>(
    `SELECT EXISTS (SELECT 1 FROM webhook_deliveries d
                     WHERE d.webhook_id = ? AND d.account_id = ? AND ${WAITING} AND d.created_at >= ?) AS waiting`,
    [webhookId, accountId, since],
  );
  return rows[0]!.waiting;
}

/** What the attempt of an appended delivery records: the poll's address and the headers it carried. */
export interface PollAttempt {
  delivery: AppendedDelivery;
  accountId: string;
  webhookId: string;
  url: string;
  /** The JSON text of its headers (src/delivery/attempt-headers.ts). */
  requestHeaders: string;
  durationMs: number;
}

/** The attempt rows of a poll's appended deliveries: succeeded, as a 2xx is, with no answer of a receiver. */
export async function insertPollAttempts(trx: Trx, attempts: PollAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  await trx('webhook_attempts').insert(
    attempts.map((a) => ({
      id: newId('att'),
      delivery_id: a.delivery.id,
      webhook_id: a.webhookId,
      account_id: a.accountId,
      event: a.delivery.event,
      attempt_number: a.delivery.attempts,
      status: 'succeeded',
      url: a.url,
      duration_ms: a.durationMs,
      request_headers: a.requestHeaders,
    })),
  );
}
