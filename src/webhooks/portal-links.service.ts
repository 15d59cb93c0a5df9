import type { Deps } from '../app/deps.js';
import { recordAudit } from '../audit/audit.repository.js';
import type { Caller, KeyPrincipal } from '../auth/principal.js';
import { now } from '../platform/clock.js';
import { safeEqual, sha256Hex } from '../platform/crypto.js';
import { AppError, fieldError, notFound } from '../platform/errors.js';
import { newId, randomBase62 } from '../platform/ids.js';
import { mapPage, type PageQuery } from '../platform/pagination.js';
import {
  findPortalLink,
  findPortalLinkByHash,
  insertPortalLink,
  listPortalLinks,
  revokePortalLinkRow,
  type PortalLinkRow,
} from './portal-links.repository.js';
import { toPortalLinkResponse, type CreatePortalLinkInput } from './portal-links.schema.js';
import { findWebhook, type WebhookRow } from './webhooks.repository.js';
import { transaction } from '../platform/transaction.js';

// Portal links (docs/adr/0063-portal-links.md): an account hands its customer a link to manage the subscriptions
// it labelled with that customer's tenant, and nothing else. The token is random (240 bits), shown once and stored
// as its SHA-256 only; every portal request resolves it again, so expiry and revocation apply at once.

export const PORTAL_TOKEN_PREFIX = 'ca_portal_';
const TOKEN = /^ca_portal_[0-9A-Za-z]{40}$/;

export async function createPortalLink(deps: Deps, caller: Caller, input: CreatePortalLinkInput, publicUrl: string) {
  const token = PORTAL_TOKEN_PREFIX + randomBase62(40);
  const link = await transaction(deps.db, async (trx) => {
    const row = await insertPortalLink(trx, {
      id: newId('plk'),
      account_id: caller.principal.accountId,
      tenant: input.tenant,
      events: input.events ?? null,
      token_hash: sha256Hex(token),
      expires_at: new Date(now().getTime() + input.expiresInSeconds * 1000),
    });
    await recordAudit(trx, caller.principal, {
      action: 'portal_link.created',
      targetType: 'portal_link',
      targetId: row.id,
      ip: caller.ip,
      details: { tenant: row.tenant, events: row.events, expiresAt: row.expires_at.toISOString() },
    });
    return row;
  });
  return { ...toPortalLinkResponse(link), token, url: `${publicUrl}/portal/${token}` };
}

export async function listAccountPortalLinks(deps: Deps, accountId: string, page: PageQuery) {
  return mapPage(await listPortalLinks(deps.db, accountId, page), toPortalLinkResponse);
}

export async function revokePortalLink(deps: Deps, caller: Caller, id: string) {
  const accountId = caller.principal.accountId;
  const row = await transaction(deps.db, async (trx) => {
    const revoked = await revokePortalLinkRow(trx, accountId, id);
    if (revoked)
      await recordAudit(trx, caller.principal, {
        action: 'portal_link.revoked',
        targetType: 'portal_link',
        targetId: id,
        ip: caller.ip,
      });
    return revoked ?? (await findPortalLink(trx, accountId, id));
  });
  if (!row) throw notFound('Portal link');
  return toPortalLinkResponse(row);
}

/** What a portal request may reach: one tenant of one account, and (when set) some event types. */
export interface PortalScope {
  link: PortalLinkRow;
  /** Who acts, for the services and the audit log: the link, as a key limited to webhooks (its id is plk_…). */
  caller: Caller;
}

const refused = (message: string) => new AppError('invalid_credential', message);

/** The scope of a portal token; 401 for a token that is not one, expired or revoked (each says which). */
export async function resolvePortalToken(deps: Deps, token: string, ip: string | null): Promise<PortalScope> {
  if (!TOKEN.test(token)) throw refused('This portal link is not valid');
  const hash = sha256Hex(token);
  const link = await findPortalLinkByHash(deps.db, hash);
  if (!link || !safeEqual(link.token_hash, hash)) throw refused('This portal link is not valid');
  if (link.revoked_at) throw refused('This portal link was revoked');
  if (link.expires_at.getTime() <= now().getTime()) throw refused('This portal link has expired');
  const principal: KeyPrincipal = {
    type: 'key',
    accountId: link.account_id,
    keyId: link.id,
    keyType: 'account',
    agentId: null,
    scopes: ['read:webhooks', 'write:webhooks'],
    spendCapCredits: null,
  };
  return { link, caller: { principal, ip } };
}

/** A subscription of the link's tenant; any other id (another tenant's, another account's, none) is not found. */
export async function portalWebhook(deps: Deps, scope: PortalScope, webhookId: string): Promise<WebhookRow> {
  const row = await findWebhook(deps.db, scope.link.account_id, webhookId);
  if (!row || row.tenant !== scope.link.tenant) throw notFound('Webhook');
  return row;
}

/** Refuses events outside the link's list, as the API refuses a bad field: 400 naming `events`. */
export function checkPortalEvents(scope: PortalScope, events: string[] | undefined): void {
  const allowed = scope.link.events;
  if (!allowed || !events) return;
  const outside = events.filter((e) => !allowed.includes(e));
  if (outside.length === 0) return;
  const message = `not offered by this portal: ${outside.join(', ')}; one of ${allowed.join(', ')}`;
  throw fieldError('events', message);
}
