import type { Conn } from '../platform/db.js';
import { uuidV7Time } from '../platform/ids.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import {
  SCHEDULED,
  whereDelivery,
  type DeliveryRef,
  type DeliveryRow,
  type ScheduledDelivery,
} from '../delivery/sql/rows.js';
import type { SendContext } from '../delivery/sql/load.js';

// ---- transitions made by people and sweeps ----

/**
 * `due` false: a pulled kind's delivery (a poll) comes back with no due time, waiting for its consumer; it leaves
 * its place in the log (poll_position) and the next poll appends it again.
 */
const REOPEN = (conn: Conn, due: boolean) => ({
  status: 'pending',
  round_attempts: 0,
  // An ordered delivery rejoins its key queued, at its place in commit order; the key's advance arms it.
  next_attempt_at: due ? conn.raw('CASE WHEN ordering_key IS NULL THEN now() END') : null,
  poll_position: null,
  job_seq: conn.raw('job_seq + 1'),
  completed_at: null,
  updated_at: conn.fn.now(),
});

/**
 * succeeded | failed | exhausted → pending, with a fresh round of retries (redeliver): due now, or, when
 * ordered, queued in its key (then advanceOrderingKey arms it when its turn comes).
 */
export async function reopenDelivery(
  conn: Conn,
  accountId: string,
  delivery: DeliveryRef,
  due = true,
): Promise<ScheduledDelivery | undefined> {
  const [row] = await conn('webhook_deliveries')
    .where({ id: delivery.id, created_at: delivery.created_at, account_id: accountId })
    .whereIn('status', ['succeeded', 'failed', 'exhausted'])
    .update(REOPEN(conn, due))
    .returning(SCHEDULED);
  return row;
}

/**
 * failed | exhausted → pending with a fresh round, as reopenDelivery: a subscription's failures since `since`
 * (recoverSince).
 */
export function reopenFailedDeliveries(
  conn: Conn,
  accountId: string,
  webhookId: string,
  since: Date,
  due = true,
): Promise<ScheduledDelivery[]> {
  return conn('webhook_deliveries')
    .where({ account_id: accountId, webhook_id: webhookId })
    .whereIn('status', ['failed', 'exhausted'])
    .where('created_at', '>=', since)
    .update(REOPEN(conn, due))
    .returning(SCHEDULED);
}

/**
 * pending → pending, due now, held by a new job (redeliver of a delivery waiting for a retry). The job that was
 * waiting becomes stale, so the delivery is sent once, not twice. An ordered delivery queued behind its key's
 * head is left in its place: hastening it would overtake.
 */
export async function hastenDelivery(
  conn: Conn,
  accountId: string,
  delivery: DeliveryRef,
): Promise<ScheduledDelivery | undefined> {
  const [row] = await conn('webhook_deliveries')
    .where({ id: delivery.id, created_at: delivery.created_at, account_id: accountId, status: 'pending' })
    .whereNotNull('next_attempt_at')
    .update({ next_attempt_at: conn.fn.now(), job_seq: conn.raw('job_seq + 1'), updated_at: conn.fn.now() })
    .returning(SCHEDULED);
  return row;
}
// ---- reads for the API (bounded by the retention cutoff `since`) ----

export function findDelivery(
  conn: Conn,
  accountId: string,
  webhookId: string,
  deliveryId: string,
  since: Date,
): Promise<DeliveryRow | undefined> {
  const q = conn<DeliveryRow>('webhook_deliveries')
    .where({ account_id: accountId, webhook_id: webhookId })
    .where('created_at', '>=', since);
  return whereDelivery(q, deliveryId).first();
}

/** A delivery with the columns of its event that its envelope is built from. */
export type DeliveryWithEvent = DeliveryRow &
  Pick<SendContext, 'inbox_id' | 'message_id' | 'payload' | 'event_created_at'>;

/** One delivery and its event in one statement; the event shares the delivery's created_at (its partition). */
export function findDeliveryWithEvent(
  conn: Conn,
  accountId: string,
  webhookId: string,
  deliveryId: string,
  since: Date,
): Promise<DeliveryWithEvent | undefined> {
  const q = conn<DeliveryWithEvent>('webhook_deliveries as d')
    .join('events as e', (j) => j.on('e.id', 'd.event_id').andOn('e.created_at', 'd.created_at'))
    .select('d.*', 'e.inbox_id', 'e.message_id', 'e.payload', 'e.created_at as event_created_at')
    .where({ 'd.account_id': accountId, 'd.webhook_id': webhookId })
    .where('d.created_at', '>=', since);
  return whereDelivery(q, deliveryId, 'd.id').first();
}

export function listDeliveries(
  conn: Conn,
  accountId: string,
  webhookId: string,
  page: PageQuery,
  since: Date,
  only: { status?: DeliveryRow['status']; event?: string } = {},
) {
  const q = conn('webhook_deliveries')
    .where({ account_id: accountId, webhook_id: webhookId })
    .where('created_at', '>=', since);
  if (only.status) q.where('status', only.status);
  if (only.event) q.where('event', only.event);
  return paginate<DeliveryRow>(q, 'webhook_deliveries', page);
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  webhook_id: string;
  account_id: string;
  event: string;
  attempt_number: number;
  status: 'succeeded' | 'failed';
  url: string;
  response_status: number | null;
  response_body: string | null;
  request_headers: Record<string, string> | null;
  response_headers: Record<string, string> | null;
  error: string | null;
  error_message: string | null;
  duration_ms: number;
  next_attempt_at: Date | null;
  created_at: Date;
}

export function listAttempts(
  conn: Conn,
  accountId: string,
  webhookId: string,
  page: PageQuery,
  since: Date,
  deliveryId?: string,
) {
  const q = conn('webhook_attempts')
    .where({ account_id: accountId, webhook_id: webhookId })
    .where('created_at', '>=', since);
  if (deliveryId) {
    q.where({ delivery_id: deliveryId });
    // No attempt is older than its delivery: the partitions before it are skipped.
    const born = uuidV7Time(deliveryId);
    if (born) q.where('created_at', '>=', born);
  }
  return paginate<AttemptRow>(q, 'webhook_attempts', page);
}
