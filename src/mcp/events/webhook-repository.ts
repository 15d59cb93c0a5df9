import type { Conn } from '../../platform/db.js';
import type { WebhookRow } from '../../webhooks/webhooks.repository.js';

// The webhooks rows of MCP Events webhook subscriptions (migrations/20261202000500_add_mcp_webhook_subscriptions.ts):
// rows of kind http the delivery engine sends like any other, found by their derived id and their principal.

export interface McpWebhookRow extends WebhookRow {
  mcp_subscription_id: string;
  mcp_principal: string;
  mcp_arguments: Record<string, string>;
  expires_at: Date | null;
}

/** A row whose deliveries run: active, and its TTL not passed. */
const LIVE = `status = 'active' AND (expires_at IS NULL OR expires_at > now())`;

const rows = (conn: Conn, accountId: string) =>
  conn<McpWebhookRow>('webhooks').where({ account_id: accountId }).whereNull('deleted_at');

/** The row of a derived id, live or lapsed (expired, disabled), if it was not deleted. */
export function findMcpWebhook(conn: Conn, accountId: string, subscriptionId: string) {
  return rows(conn, accountId).where({ mcp_subscription_id: subscriptionId }).first();
}

export const isLive = (row: McpWebhookRow, at: Date): boolean =>
  row.status === 'active' && (row.expires_at === null || row.expires_at > at);

/** How many live subscriptions the principal holds (its limit). */
export async function countLiveOfPrincipal(conn: Conn, accountId: string, principal: string): Promise<number> {
  const [row] = await rows(conn, accountId).where({ mcp_principal: principal }).whereRaw(LIVE).count('* as n');
  return Number((row as unknown as { n: string | number }).n);
}

/** Whether the principal holds a live subscription to `url`: verification is per (principal, url). */
export async function hasLiveToUrl(conn: Conn, accountId: string, principal: string, url: string): Promise<boolean> {
  const row = await rows(conn, accountId).where({ mcp_principal: principal, url }).whereRaw(LIVE).first('id');
  return row !== undefined;
}

export type NewMcpWebhook = Pick<
  McpWebhookRow,
  | 'id'
  | 'url'
  | 'events'
  | 'description'
  | 'secret_sealed'
  | 'filter'
  | 'mcp_subscription_id'
  | 'mcp_principal'
  | 'mcp_arguments'
  | 'expires_at'
>;

export async function insertMcpWebhook(conn: Conn, accountId: string, w: NewMcpWebhook): Promise<McpWebhookRow> {
  const [row] = await conn<McpWebhookRow>('webhooks')
    .insert({
      ...w,
      account_id: accountId,
      kind: 'http',
      legacy_secret_sealed: null,
      filter: w.filter ? (JSON.stringify(w.filter) as never) : null,
      mcp_arguments: JSON.stringify(w.mcp_arguments) as never,
    })
    .returning('*');
  return row!;
}

export interface Refresh {
  expiresAt: Date | null;
  secretSealed: string;
  /** The secret it replaces, which keeps signing beside it until previousExpiresAt; null: the secret is the same. */
  previous: { sealed: string; expiresAt: Date } | null;
}

/** A refresh: the new grant and secret, and the row active again (a refresh is the client's sign of life). */
export async function refreshMcpWebhook(
  conn: Conn,
  accountId: string,
  id: string,
  r: Refresh,
): Promise<McpWebhookRow | undefined> {
  const [row] = await rows(conn, accountId)
    .where({ id })
    .update({
      expires_at: r.expiresAt,
      secret_sealed: r.secretSealed,
      ...(r.previous
        ? { previous_secret_sealed: r.previous.sealed, previous_secret_expires_at: r.previous.expiresAt }
        : {}),
      status: 'active',
      disabled_at: null,
      disabled_reason: null,
      consecutive_failures: conn.raw(`CASE WHEN status = 'active' THEN consecutive_failures ELSE 0 END`) as never,
      updated_at: conn.fn.now() as never,
    })
    .returning('*');
  return row;
}

/** events/unsubscribe: the row deleted, so its pending deliveries stop; false when there was none. */
export async function deleteMcpWebhook(conn: Conn, accountId: string, subscriptionId: string): Promise<boolean> {
  const n = await rows(conn, accountId)
    .where({ mcp_subscription_id: subscriptionId })
    .update({ deleted_at: conn.fn.now() as never, status: 'disabled', updated_at: conn.fn.now() as never });
  return n > 0;
}

export interface AttemptSummary {
  lastSuccessAt: Date | null;
  lastFailure: { at: Date; error: string | null; status: number | null } | null;
}

/** The subscription's last successful attempt and its last failed one (deliveryStatus). */
export async function lastAttempts(conn: Conn, accountId: string, webhookId: string): Promise<AttemptSummary> {
  const base = () =>
    conn('webhook_attempts').where({ account_id: accountId, webhook_id: webhookId }).orderBy('created_at', 'desc');
  const ok = await base().where({ status: 'succeeded' }).first('created_at');
  const failed = await base().where({ status: 'failed' }).first('created_at', 'error', 'response_status');
  return {
    lastSuccessAt: ok?.created_at ?? null,
    lastFailure: failed ? { at: failed.created_at, error: failed.error, status: failed.response_status } : null,
  };
}

/** The time of the subscription's oldest pending delivery: the watermark stays behind it. */
export async function oldestPendingAt(conn: Conn, accountId: string, webhookId: string): Promise<Date | null> {
  const row = await conn('webhook_deliveries')
    .where({ account_id: accountId, webhook_id: webhookId, status: 'pending' })
    .orderBy('created_at', 'asc')
    .first('created_at');
  return row?.created_at ?? null;
}
