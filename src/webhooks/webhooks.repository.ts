import type { DestinationKind } from '../delivery/kinds/registry.js';
import { KIND_FIELDS } from '../delivery/kinds/registry.js';
import type { Conn } from '../platform/db.js';
import { iso, now } from '../platform/clock.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import type { SignatureScheme } from '../delivery/sign.js';
import type { Filter } from './filter-grammar.js';

export interface WebhookRow {
  id: string;
  account_id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'active' | 'disabled';
  /**
   * http: POSTed to `url`; stream: sent down a `switchboard listen` connection
   * (docs/adr/0054-stream-destinations.md); poll: taken by its consumer (docs/adr/0089-poll-destinations.md).
   */
  kind: DestinationKind;
  /** How deliveries are signed: secret_sealed holds a whsec_ (hmac-sha256) or a whsk_ (ed25519). */
  signature_scheme: SignatureScheme;
  /** A destination URL that carries a credential (a broker's), sealed; `url` holds it without its password. */
  broker_url_sealed: string | null;
  /** The kind's own fields by their API names (src/delivery/kinds): rabbitmq's exchange and routingKey, … */
  settings: Record<string, unknown>;
  secret_sealed: string;
  /** ed25519: the whpk_ of secret_sealed's key (public, so kept in the clear); null for hmac-sha256. */
  public_key: string | null;
  /** The signing key before the last rotation or change of scheme, of either scheme, until its expiry. */
  previous_secret_sealed: string | null;
  /** The whpk_ of previous_secret_sealed when that key is ed25519. */
  previous_public_key: string | null;
  previous_secret_expires_at: Date | null;
  legacy_secret_sealed: string | null;
  consecutive_failures: number;
  rate_limit_per_second: number | null;
  tenant: string | null;
  /** key: one delivery at a time per ordering key (docs/webhook-retries.md#ordered-delivery). */
  ordering: 'none' | 'key';
  /** Only events whose payload matches get a delivery; null: all (docs/webhook-filters.md). */
  filter: Filter | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  deleted_at: Date | null;
  /** A poll subscription's credential (whpoll_…) as its SHA-256 hex; null: none issued (or revoked). */
  poll_credential_hash: string | null;
  /** The last position given in a poll subscription's log (0: none yet). */
  poll_head: number;
  /** The position its consumer committed; null: none yet. */
  poll_cursor: number | null;
  /** An MCP Events webhook subscription's derived id (sub_…), null for the others (docs/mcp-events.md#webhook-mode). */
  mcp_subscription_id?: string | null;
  /** Who made it: key:<api key id> or grant:<OAuth grant id>. */
  mcp_principal?: string | null;
  mcp_arguments?: Record<string, string> | null;
  /** Its granted TTL; null: no expiry. */
  expires_at?: Date | null;
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
  Partial<
    Pick<WebhookRow, 'ordering' | 'signature_scheme' | 'public_key' | 'filter' | 'broker_url_sealed' | 'settings'>
  >;

export async function insertWebhook(
  conn: Conn,
  accountId: string,
  w: NewWebhook & Partial<Pick<WebhookRow, 'kind' | 'poll_credential_hash'>>,
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

/** The live poll subscription whose credential hashes to `hash` (any account: the credential names it). */
export function findWebhookByPollCredential(conn: Conn, hash: string): Promise<WebhookRow | undefined> {
  return conn<WebhookRow>('webhooks')
    .where({ poll_credential_hash: hash, kind: 'poll' })
    .whereNull('deleted_at')
    .first();
}

/** Issues (a hash) or revokes (null) a poll subscription's credential; false: no such live poll subscription. */
export async function setPollCredential(
  conn: Conn,
  accountId: string,
  id: string,
  hash: string | null,
): Promise<boolean> {
  const n = await live(conn, accountId)
    .where({ id, kind: 'poll' })
    .update({ poll_credential_hash: hash, updated_at: conn.fn.now() as unknown as Date });
  return n > 0;
}

/** The position a poll subscription's consumer committed; later polls without a cursor continue after it. */
export async function commitPollCursor(conn: Conn, accountId: string, id: string, position: number): Promise<boolean> {
  const n = await live(conn, accountId).where({ id, kind: 'poll' }).update({ poll_cursor: position });
  return n > 0;
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

/** A signing key the service made: its sealed secret, and its whpk_ when ed25519. */
export interface NewSigningKey {
  scheme: SignatureScheme;
  secretSealed: string;
  publicKey: string | null;
}

/**
 * A new signing key (a rotation, or a change of scheme); the current one becomes the previous one until
 * `previousExpiresAt`. One statement reads and writes the row, so two concurrent rotations each keep the other's
 * key (the later one's previous is the earlier one's new key) instead of both demoting the same old one; and it
 * names the scheme it leaves (`from`), so a key made for one scheme never lands on a row another request has
 * meanwhile moved to the other: the caller that gets no row lost that race.
 */
export async function replaceSigningKey(
  conn: Conn,
  accountId: string,
  id: string,
  from: SignatureScheme,
  next: NewSigningKey,
  previousExpiresAt: Date,
): Promise<WebhookRow | undefined> {
  const [row] = await live(conn, accountId)
    .where({ id, signature_scheme: from })
    .update({
      previous_secret_sealed: conn.ref('secret_sealed') as unknown as string,
      previous_public_key: conn.ref('public_key') as unknown as string,
      signature_scheme: next.scheme,
      secret_sealed: next.secretSealed,
      public_key: next.publicKey,
      previous_secret_expires_at: previousExpiresAt,
      updated_at: conn.fn.now() as unknown as Date,
    })
    .returning('*');
  return row;
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

/** Whether the key before the last rotation or change of scheme still signs beside the current one. */
const previousKeySigns = (w: WebhookRow) =>
  w.previous_secret_sealed !== null && w.previous_secret_expires_at !== null && w.previous_secret_expires_at > now();

/** Every kind's fields as an answer shows them: the subscription's own from its settings, the others null. */
const kindFieldsOf = (w: WebhookRow): Record<string, unknown> =>
  Object.fromEntries(KIND_FIELDS.map((f) => [f.name, w.settings?.[f.name] ?? null]));

export const toWebhookResponse = (w: WebhookRow) => ({
  id: w.id,
  kind: w.kind,
  url: w.url,
  ...kindFieldsOf(w),
  events: w.events,
  description: w.description,
  status: w.status,
  hasLegacySecret: w.legacy_secret_sealed !== null,
  consecutiveFailures: w.consecutive_failures,
  rateLimitPerSecond: w.rate_limit_per_second,
  tenant: w.tenant,
  ordering: w.ordering,
  signatureScheme: w.signature_scheme,
  publicKey: w.public_key,
  previousPublicKey: previousKeySigns(w) ? w.previous_public_key : null,
  filter: w.filter,
  disabledAt: iso(w.disabled_at),
  disabledReason: w.disabled_reason,
  previousSecretExpiresAt: previousKeySigns(w) ? iso(w.previous_secret_expires_at) : null,
  mcp: w.mcp_subscription_id
    ? {
        subscriptionId: w.mcp_subscription_id,
        principal: w.mcp_principal!,
        arguments: w.mcp_arguments ?? {},
        expiresAt: iso(w.expires_at ?? null),
      }
    : null,
  createdAt: iso(w.created_at),
  updatedAt: iso(w.updated_at),
});
