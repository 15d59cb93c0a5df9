import type { Conn } from '../platform/db.js';
import { iso, now } from '../platform/clock.js';
import { paginate, type PageQuery } from '../platform/pagination.js';

export interface WebhookRow {
  id: string;
  account_id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'active' | 'disabled';
  /**
   * http: POSTed to `url`; stream: sent down a `switchboard listen` connection
   * (docs/adr/0054-stream-destinations.md).
   */
  kind: 'http' | 'stream';
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  legacy_secret_sealed: string | null;
  consecutive_failures: number;
  rate_limit_per_second: number | null;
  tenant: string | null;
  /** key: one delivery at a time per ordering key (docs/webhooks.md#ordered-delivery). */
  ordering: 'none' | 'key';
  disabled_at: Date | null;
  disabled_reason: string | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewWebhook = Pick<
  WebhookRow,
  | 'id'
  | 'url'
  | 'events'
  | 'description'
  | 'secret_sealed'
  | 'legacy_secret_sealed'
  | 'rate_limit_per_second'
  | 'tenant'
> &
  Partial<Pick<WebhookRow, 'ordering'>>;

export async function insertWebhook(
  conn: Conn,
  accountId: string,
  w: NewWebhook & { kind?: WebhookRow['kind'] },
): Promise<WebhookRow> {
  const [row] = await conn<WebhookRow>('webhooks')
    .insert({ ...w, account_id: accountId })
    .returning('*');
  return row!;
}

const live = (conn: Conn, accountId: string) =>
  conn<WebhookRow>('webhooks').where({ account_id: accountId }).whereNull('deleted_at');

export function findWebhook(conn: Conn, accountId: string, id: string): Promise<WebhookRow | undefined> {
  return live(conn, accountId).where({ id }).first();
}

/**
 * A subscription whose deliveries and attempts may be read: a live one, or a stream whose session ended (its row is
 * deleted when the session ends, and its history stays readable: docs/adr/0054-stream-destinations.md). A deleted
 * HTTP subscription is not found.
 */
export function findWebhookWithHistory(conn: Conn, accountId: string, id: string): Promise<WebhookRow | undefined> {
  return conn<WebhookRow>('webhooks')
    .where({ account_id: accountId, id })
    .where((q) => q.whereNull('deleted_at').orWhere({ kind: 'stream' }))
    .first();
}

/** The account's open streams, oldest first, under a lock that serialises opening them (the per-account limit). */
export async function lockOpenStreams(trx: Conn, accountId: string): Promise<string[]> {
  await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('webhook-streams'), hashtext(?))`, [accountId]);
  const rows = await live(trx, accountId).where({ kind: 'stream' }).orderBy('created_at').select('id');
  return rows.map((r) => r.id);
}

export function listWebhooks(conn: Conn, accountId: string, page: PageQuery, tenant?: string) {
  const q = live(conn, accountId);
  if (tenant !== undefined) q.where({ tenant });
  return paginate<WebhookRow>(q, 'webhooks', page);
}

export async function updateWebhook(
  conn: Conn,
  accountId: string,
  id: string,
  patch: Partial<WebhookRow>,
): Promise<WebhookRow | undefined> {
  const [row] = await live(conn, accountId)
    .where({ id })
    .update({ ...patch, updated_at: conn.fn.now() as unknown as Date })
    .returning('*');
  return row;
}

export async function softDeleteWebhook(conn: Conn, accountId: string, id: string): Promise<boolean> {
  const n = await live(conn, accountId)
    .where({ id })
    .update({ deleted_at: conn.fn.now() as unknown as Date, status: 'disabled' });
  return n > 0;
}

/**
 * A new secret; the current one becomes the previous one until `previousExpiresAt`. One statement reads and
 * writes the row, so two concurrent rotations each keep the other's secret (the later one's previous is the
 * earlier one's new secret) instead of both demoting the same old one.
 */
export async function rotateWebhookSecret(
  conn: Conn,
  accountId: string,
  id: string,
  secretSealed: string,
  previousExpiresAt: Date,
): Promise<boolean> {
  const n = await live(conn, accountId)
    .where({ id })
    .update({
      previous_secret_sealed: conn.ref('secret_sealed') as unknown as string,
      secret_sealed: secretSealed,
      previous_secret_expires_at: previousExpiresAt,
      updated_at: conn.fn.now() as unknown as Date,
    });
  return n > 0;
}

/** Active: zero the count. Returns the row (also when it was already active). */
export async function activateWebhook(conn: Conn, accountId: string, id: string): Promise<WebhookRow | undefined> {
  return updateWebhook(conn, accountId, id, {
    status: 'active',
    consecutive_failures: 0,
    disabled_at: null,
    disabled_reason: null,
  });
}

export const toWebhookResponse = (w: WebhookRow) => ({
  id: w.id,
  kind: w.kind,
  url: w.url,
  events: w.events,
  description: w.description,
  status: w.status,
  hasLegacySecret: w.legacy_secret_sealed !== null,
  consecutiveFailures: w.consecutive_failures,
  rateLimitPerSecond: w.rate_limit_per_second,
  tenant: w.tenant,
  ordering: w.ordering,
  disabledAt: iso(w.disabled_at),
  disabledReason: w.disabled_reason,
  previousSecretExpiresAt:
    w.previous_secret_expires_at && w.previous_secret_expires_at > now() ? iso(w.previous_secret_expires_at) : null,
  createdAt: iso(w.created_at),
  updatedAt: iso(w.updated_at),
});
