import type { Conn } from '../platform/db.js';
import { iso } from '../platform/clock.js';
import { paginate, type PageQuery } from '../platform/pagination.js';

export interface WebhookRow {
  id: string;
  account_id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'active' | 'disabled';
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  legacy_secret_sealed: string | null;
  consecutive_failures: number;
  disabled_at: Date | null;
  disabled_reason: string | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewWebhook = Pick<WebhookRow, 'id' | 'url' | 'events' | 'description' | 'secret_sealed' | 'legacy_secret_sealed'>;

export async function insertWebhook(conn: Conn, accountId: string, w: NewWebhook): Promise<WebhookRow> {
  const [row] = await conn<WebhookRow>('webhooks').insert({ ...w, account_id: accountId }).returning('*');
  return row!;
}

const live = (conn: Conn, accountId: string) => conn<WebhookRow>('webhooks').where({ account_id: accountId }).whereNull('deleted_at');

export function findWebhook(conn: Conn, accountId: string, id: string): Promise<WebhookRow | undefined> {
  return live(conn, accountId).where({ id }).first();
}

export function listWebhooks(conn: Conn, accountId: string, page: PageQuery) {
  return paginate<WebhookRow>(live(conn, accountId), 'webhooks', page);
}

export async function updateWebhook(conn: Conn, accountId: string, id: string, patch: Partial<WebhookRow>): Promise<WebhookRow | undefined> {
  const [row] = await live(conn, accountId).where({ id }).update({ ...patch, updated_at: conn.fn.now() as unknown as Date }).returning('*');
  return row;
}

export async function softDeleteWebhook(conn: Conn, accountId: string, id: string): Promise<boolean> {
  const n = await live(conn, accountId).where({ id }).update({ deleted_at: conn.fn.now() as unknown as Date, status: 'disabled' });
  return n > 0;
}

/** Active: zero the count. Returns the row (also when it was already active). */
export async function activateWebhook(conn: Conn, accountId: string, id: string): Promise<WebhookRow | undefined> {
  return updateWebhook(conn, accountId, id, { status: 'active', consecutive_failures: 0, disabled_at: null, disabled_reason: null });
}

// ---- deliveries ----

export interface DeliveryRow {
  id: string;
  account_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  status: 'pending' | 'succeeded' | 'failed' | 'exhausted';
  attempts: number;
  last_error: string | null;
  last_response_status: number | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function findDelivery(conn: Conn, accountId: string, webhookId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
  return conn<DeliveryRow>('webhook_deliveries').where({ account_id: accountId, webhook_id: webhookId, id: deliveryId }).first();
}

export function listDeliveries(conn: Conn, accountId: string, webhookId: string, page: PageQuery) {
  return paginate<DeliveryRow>(conn('webhook_deliveries').where({ account_id: accountId, webhook_id: webhookId }), 'webhook_deliveries', page);
}

/** Puts deliveries back to pending for another round of attempts; returns the ids that changed. */
export async function reopenDeliveries(conn: Conn, accountId: string, webhookId: string, filter: { ids?: string[]; failedSince?: Date }): Promise<string[]> {
  const q = conn('webhook_deliveries').where({ account_id: accountId, webhook_id: webhookId });
  if (filter.ids) q.whereIn('id', filter.ids);
  if (filter.failedSince) q.whereIn('status', ['failed', 'exhausted']).where('created_at', '>=', filter.failedSince);
  const rows = await q.update({ status: 'pending', completed_at: null, updated_at: conn.fn.now() }).returning('id');
  return rows.map((r: { id: string }) => r.id);
}

// ---- attempts ----

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
  error: string | null;
  error_message: string | null;
  duration_ms: number;
  next_attempt_at: Date | null;
  created_at: Date;
}

export function listAttempts(conn: Conn, accountId: string, webhookId: string, page: PageQuery, deliveryId?: string) {
  const q = conn('webhook_attempts').where({ account_id: accountId, webhook_id: webhookId });
  if (deliveryId) q.where({ delivery_id: deliveryId });
  return paginate<AttemptRow>(q, 'webhook_attempts', page);
}

export const toWebhookResponse = (w: WebhookRow) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  description: w.description,
  status: w.status,
  hasLegacySecret: w.legacy_secret_sealed !== null,
  consecutiveFailures: w.consecutive_failures,
  disabledAt: iso(w.disabled_at),
  disabledReason: w.disabled_reason,
  previousSecretExpiresAt: w.previous_secret_expires_at && w.previous_secret_expires_at > new Date() ? iso(w.previous_secret_expires_at) : null,
  createdAt: iso(w.created_at),
  updatedAt: iso(w.updated_at),
});

export const toDeliveryResponse = (d: DeliveryRow) => ({
  id: d.id,
  webhookId: d.webhook_id,
  eventId: d.event_id,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  lastError: d.last_error,
  lastResponseStatus: d.last_response_status,
  completedAt: iso(d.completed_at),
  createdAt: iso(d.created_at),
  updatedAt: iso(d.updated_at),
});

export const toAttemptResponse = (a: AttemptRow) => ({
  id: a.id,
  deliveryId: a.delivery_id,
  webhookId: a.webhook_id,
  event: a.event,
  attemptNumber: a.attempt_number,
  status: a.status,
  url: a.url,
  responseStatus: a.response_status,
  responseBody: a.response_body,
  error: a.error,
  errorMessage: a.error_message,
  durationMs: a.duration_ms,
  createdAt: iso(a.created_at),
  nextAttemptAt: iso(a.next_attempt_at),
});
