import type { Caller } from '../auth/principal.js';
import { recordAudit } from '../audit/audit.repository.js';
import type { Deps } from '../app/deps.js';
import { notFound } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import type { PageQuery } from '../platform/pagination.js';
import { deleteGrant, insertGrant, listGrants, type GrantRow } from './grants.repository.js';
import { hashOAuthId } from './oauth-store.js';
import type { Resource } from '../auth/principal.js';
import { deleteStoredByGrant } from './store.repository.js';
import { transaction } from '../platform/transaction.js';

export interface ConsentedGrant {
  accountId: string;
  userId: string;
  /** The authorization server's grant id; only its hash is kept. */
  grantId: string;
  clientId: string;
  clientName: string | null;
  resource: Resource;
  scopes: string[];
  expiresAt: Date;
  ip: string;
}

/** Records what a person just consented to, with an audit entry naming them and the client. */
export async function recordConsentedGrant(deps: Pick<Deps, 'db'>, c: ConsentedGrant): Promise<GrantRow> {
  return transaction(deps.db, async (trx) => {
    const row = await insertGrant(trx, c.accountId, {
      id: newId('ogr'),
      user_id: c.userId,
      grant_id_hash: hashOAuthId(c.grantId),
      client_id: c.clientId,
      client_name: c.clientName,
      resource: c.resource.url,
      agent_id: c.resource.kind === 'agent' ? c.resource.agentId : null,
      scopes: c.scopes,
      expires_at: c.expiresAt,
    });
    await recordAudit(
      trx,
      { type: 'user', accountId: c.accountId, userId: c.userId },
      {
        action: 'oauth.grant_created',
        targetType: 'oauth_grant',
        targetId: row.id,
        ip: c.ip,
        details: { clientId: c.clientId, clientName: c.clientName, resource: c.resource.url, scopes: c.scopes },
      },
    );
    return row;
  });
}

export const listOAuthGrants = (deps: Pick<Deps, 'db'>, accountId: string, page: PageQuery) =>
  listGrants(deps.db, accountId, page);

/**
 * Revokes a grant: its row and every artifact of it (codes, access and refresh tokens) go in one transaction.
 * Access tokens are looked up in Postgres on every request (never cached), so the very next request with any
 * of its tokens fails, on every instance.
 */
export async function revokeOAuthGrant(deps: Pick<Deps, 'db'>, caller: Caller, id: string): Promise<void> {
  const { principal, ip } = caller;
  await transaction(deps.db, async (trx) => {
    const row = await deleteGrant(trx, principal.accountId, id);
    if (!row) throw notFound('OAuth grant');
    await deleteStoredByGrant(trx, row.grant_id_hash);
    await recordAudit(trx, principal, {
      action: 'oauth.grant_revoked',
      targetType: 'oauth_grant',
      targetId: row.id,
      ip,
      details: { clientId: row.client_id, clientName: row.client_name, resource: row.resource },
    });
  });
}
