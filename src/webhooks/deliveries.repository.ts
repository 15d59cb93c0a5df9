import { preparedRaw, type Conn } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { DeliveryRow } from './webhooks.repository.js';

// Worker-side statements of the delivery pipeline. The worker only has a delivery id, so the first
// lookup is by id; every later statement is scoped by the account it found.

/** A delivery with what sending it needs from its subscription and its event. */
export interface SendContext extends Pick<DeliveryRow, 'id' | 'account_id' | 'webhook_id' | 'event_id' | 'event' | 'status' | 'attempts'> {
  url: string;
  webhook_status: 'active' | 'disabled';
  webhook_deleted_at: Date | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  legacy_secret_sealed: string | null;
  inbox_id: string | null;
  message_id: string | null;
  payload: Record<string, unknown>;
  event_created_at: Date;
}

/** Deliveries with their subscription and event, in one round trip; the answer is aligned with `deliveryIds`. */
export async function loadSendContexts(conn: Conn, deliveryIds: string[]): Promise<Array<SendContext | undefined>> {
  const { rows } = await preparedRaw(
    conn,
    'load_send_contexts',
    `SELECT d.id, d.account_id, d.webhook_id, d.event_id, d.event, d.status, d.attempts,
            w.url, w.status AS webhook_status, w.deleted_at AS webhook_deleted_at, w.secret_sealed,
            w.previous_secret_sealed, w.previous_secret_expires_at, w.legacy_secret_sealed,
            e.inbox_id, e.message_id, e.payload, e.created_at AS event_created_at
       FROM webhook_deliveries d
       JOIN webhooks w ON w.id = d.webhook_id
       JOIN events e ON e.id = d.event_id
      WHERE d.id = ANY (?::uuid[])`,
    [deliveryIds],
  );
  const byId = new Map((rows as SendContext[]).map((r) => [r.id, r]));
  return deliveryIds.map((id) => byId.get(id));
}

/**
 * The common outcomes (a success, or a failure that will be retried) of many attempts in ONE statement:
 * attempt rows, delivery rows, and the reset of the consecutive count of subscriptions that succeeded.
 * Returns the attempt numbers, aligned with `outcomes`.
 */
export async function recordRoutineAttempts(conn: Conn, outcomes: AttemptOutcome[]): Promise<number[]> {
  const col = <K extends keyof AttemptOutcome>(k: K) => outcomes.map((o) => o[k]);
  const ids = outcomes.map(() => newId('att'));
  const { rows } = await preparedRaw(
    conn,
    'record_routine_attempts',
    `WITH input AS (
       SELECT * FROM unnest(?::text[], ?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::text[], ?::int[], ?::timestamptz[])
         AS x(attempt_id, delivery_id, webhook_id, account_id, event, outcome, url, response_status, response_body, error, error_message, duration_ms, next_attempt_at)
     ), d AS (
       UPDATE webhook_deliveries wd
          SET attempts = wd.attempts + 1,
              status = CASE WHEN input.outcome = 'succeeded' THEN 'succeeded' ELSE 'pending' END,
              last_error = input.error, last_response_status = input.response_status,
              completed_at = CASE WHEN input.outcome = 'succeeded' THEN now() END, updated_at = now()
         FROM input
        WHERE wd.id = input.delivery_id AND wd.account_id = input.account_id
       RETURNING wd.id, wd.attempts
     ), a AS (
       INSERT INTO webhook_attempts (id, delivery_id, webhook_id, account_id, event, attempt_number, status, url,
                                     response_status, response_body, error, error_message, duration_ms, next_attempt_at)
       SELECT i.attempt_id, i.delivery_id, i.webhook_id, i.account_id, i.event, d.attempts,
              CASE WHEN i.outcome = 'succeeded' THEN 'succeeded' ELSE 'failed' END, i.url,
              i.response_status, i.response_body, i.error, i.error_message, i.duration_ms, i.next_attempt_at
         FROM input i JOIN d ON d.id = i.delivery_id
       RETURNING id, attempt_number
     ), w AS (
       UPDATE webhooks SET consecutive_failures = 0
        WHERE id IN (SELECT webhook_id FROM input WHERE outcome = 'succeeded') AND consecutive_failures <> 0
       RETURNING id
     )
     SELECT a.id, a.attempt_number FROM a`,
    [ids, col('deliveryId'), col('webhookId'), col('accountId'), col('event'), col('outcome'), col('url'), col('responseStatus'),
      col('responseBody'), col('error'), col('errorMessage'), col('durationMs'), col('nextAttemptAt')] as unknown as string[],
  );
  const numbers = new Map((rows as Array<{ id: string; attempt_number: number }>).map((r) => [r.id, r.attempt_number]));
  return ids.map((id) => numbers.get(id) ?? 0);
}

export interface AttemptOutcome {
  accountId: string;
  deliveryId: string;
  webhookId: string;
  event: string;
  url: string;
  /** succeeded: 2xx. failed: will be retried. exhausted: the last retry failed. gaveUp: final failure, not counted (410). */
  outcome: 'succeeded' | 'failed' | 'exhausted' | 'gaveUp';
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  errorMessage: string | null;
  durationMs: number;
  nextAttemptAt: Date | null;
}

/**
 * Records one attempt, moves the delivery on and keeps the subscription's consecutive count, in ONE statement:
 * a success resets the count, an exhausted delivery adds one. Returns the count after an exhausted delivery.
 */
export async function recordAttempt(conn: Conn, a: AttemptOutcome): Promise<{ attemptNumber: number; consecutiveFailures: number | null }> {
  const deliveryStatus = a.outcome === 'succeeded' ? 'succeeded' : a.outcome === 'exhausted' ? 'exhausted' : a.outcome === 'gaveUp' ? 'failed' : 'pending';
  const final = a.outcome !== 'failed';
  const { rows } = await preparedRaw(
    conn,
    'record_attempt',
    `WITH d AS (
       UPDATE webhook_deliveries SET attempts = attempts + 1, status = :deliveryStatus, last_error = :error,
              last_response_status = :responseStatus, completed_at = CASE WHEN :final THEN now() ELSE NULL END, updated_at = now()
        WHERE id = :deliveryId AND account_id = :accountId
       RETURNING attempts
     ), a AS (
       INSERT INTO webhook_attempts (id, delivery_id, webhook_id, account_id, event, attempt_number, status, url,
                                     response_status, response_body, error, error_message, duration_ms, next_attempt_at)
       SELECT :attemptId, :deliveryId, :webhookId, :accountId, :event, d.attempts, :attemptStatus, :url,
              :responseStatus, :responseBody, :error, :errorMessage, :durationMs, :nextAttemptAt
         FROM d
       RETURNING attempt_number
     ), w AS (
       UPDATE webhooks SET consecutive_failures = CASE WHEN :outcome = 'succeeded' THEN 0 ELSE consecutive_failures + 1 END
        WHERE id = :webhookId AND account_id = :accountId
          AND ((:outcome = 'succeeded' AND consecutive_failures <> 0) OR :outcome = 'exhausted')
       RETURNING consecutive_failures
     )
     SELECT (SELECT attempt_number FROM a) AS attempt_number, (SELECT consecutive_failures FROM w) AS consecutive_failures`,
    {
      attemptId: newId('att'),
      deliveryId: a.deliveryId,
      webhookId: a.webhookId,
      accountId: a.accountId,
      event: a.event,
      url: a.url,
      outcome: a.outcome,
      deliveryStatus,
      final,
      attemptStatus: a.outcome === 'succeeded' ? 'succeeded' : 'failed',
      responseStatus: a.responseStatus,
      responseBody: a.responseBody,
      error: a.error,
      errorMessage: a.errorMessage,
      durationMs: a.durationMs,
      nextAttemptAt: a.nextAttemptAt,
    },
  );
  const row = rows[0] as { attempt_number: number | null; consecutive_failures: number | null };
  return { attemptNumber: row.attempt_number ?? 0, consecutiveFailures: a.outcome === 'exhausted' ? row.consecutive_failures : null };
}

/**
 * Disables the subscription if it is still active and (when given) its count reached the threshold.
 * Many exhausted deliveries may call this at once; the row lock and the status condition let exactly one win.
 */
export async function disableWebhookOnce(conn: Conn, accountId: string, webhookId: string, reason: string, threshold?: number): Promise<boolean> {
  const q = conn('webhooks').where({ id: webhookId, account_id: accountId, status: 'active' }).whereNull('deleted_at');
  if (threshold !== undefined) q.where('consecutive_failures', '>=', threshold);
  const rows = await q.update({ status: 'disabled', disabled_at: conn.fn.now(), disabled_reason: reason, updated_at: conn.fn.now() }).returning('id');
  return rows.length > 0;
}

/** A delivery that stopped because its subscription is disabled or deleted: `failed`, so recoverSince finds it. */
export async function markStopped(conn: Conn, accountId: string, deliveryId: string): Promise<void> {
  await conn('webhook_deliveries').where({ id: deliveryId, account_id: accountId, status: 'pending' }).update({ status: 'failed', completed_at: conn.fn.now(), updated_at: conn.fn.now() });
}
