import type { Conn } from '../platform/db.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import type { Role } from '../auth/principal.js';
import type { AgentKeyMinting } from './resources.js';

export interface GrantRow {
  id: string;
  account_id: string;
  user_id: string;
  grant_id_hash: string;
  client_id: string;
  client_name: string | null;
  resource: string;
  agent_id: string | null;
  scopes: string[];
  expires_at: Date;
  last_used_at: Date | null;
  created_at: Date;
}

export type NewGrantRow = Omit<GrantRow, 'account_id' | 'last_used_at' | 'created_at'>;

export async function insertGrant(conn: Conn, accountId: string, row: NewGrantRow): Promise<GrantRow> {
  const [grant] = await conn<GrantRow>('oauth_grants')
    .insert({ ...row, account_id: accountId })
    .returning('*');
  return grant!;
}

/** Live grants, newest first. */
export function listGrants(conn: Conn, accountId: string, page: PageQuery) {
  const query = conn('oauth_grants').where({ account_id: accountId }).andWhere('expires_at', '>', conn.fn.now());
  return paginate<GrantRow>(query, 'oauth_grants', page);
}

export async function deleteGrant(conn: Conn, accountId: string, id: string): Promise<GrantRow | undefined> {
  const [row] = await conn<GrantRow>('oauth_grants').where({ account_id: accountId, id }).delete().returning('*');
  return row;
}

/** By the hash of the authorization server's grant id: the library revokes grants it knows by that id only. */
export async function deleteGrantByHash(conn: Conn, grantIdHash: string): Promise<void> {
  await conn('oauth_grants').where({ grant_id_hash: grantIdHash }).delete();
}

type TokenRow = GrantRow & { payload: string; consumed_at: Date | null; role: Role; minting: AgentKeyMinting };

export interface TokenWithGrant {
  payload: string;
  consumed_at: Date | null;
  grant: GrantRow;
  role: Role;
  agentKeyMinting: AgentKeyMinting;
}

/**
 * Authentication lookup for an OAuth access token, across accounts (the hash is the credential): the stored
 * token, its live grant and the granting person's current role, in one indexed statement. No row: unknown,
 * expired, or its grant was revoked.
 */
export async function findAccessTokenWithGrant(conn: Conn, tokenIdHash: string): Promise<TokenWithGrant | undefined> {
  const row = await conn('oauth_store as s')
    .join('oauth_grants as g', 'g.grant_id_hash', 's.grant_id_hash')
    .join('users as u', 'u.id', 'g.user_id')
    .join('accounts as a', 'a.id', 'g.account_id')
    .where({ 's.model': 'AccessToken', 's.id_hash': tokenIdHash })
    .andWhere('s.expires_at', '>', conn.fn.now())
    .andWhere('g.expires_at', '>', conn.fn.now())
    // The grantor must still be in the grant's account (a person who left it grants nothing).
    .andWhereRaw('u.account_id = g.account_id')
    .first<TokenRow | undefined>('s.payload', 's.consumed_at', 'u.role', 'a.agent_key_minting as minting', 'g.*');
  if (!row) return undefined;
  const { payload, consumed_at, role, minting, ...grant } = row;
  return { payload, consumed_at, role, agentKeyMinting: minting, grant };
}

/** lastUsedAt to the minute: applies only when the stored time is over a minute old. */
export async function touchGrantUsage(conn: Conn, accountId: string, id: string): Promise<void> {
  await conn('oauth_grants')
    .where({ account_id: accountId, id })
    .andWhere((w) => w.whereNull('last_used_at').orWhereRaw(`last_used_at < now() - interval '1 minute'`))
    .update({ last_used_at: conn.fn.now() });
}
