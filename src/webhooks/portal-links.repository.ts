import type { Conn } from '../platform/db.js';
import { paginate, type PageQuery } from '../platform/pagination.js';

export interface PortalLinkRow {
  id: string;
  account_id: string;
  tenant: string;
  /** The event types the link may subscribe to; null: any the catalog offers. */
  events: string[] | null;
  token_hash: string;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Date;
}

export async function insertPortalLink(conn: Conn, row: Omit<PortalLinkRow, 'created_at' | 'revoked_at'>) {
  const [link] = await conn<PortalLinkRow>('portal_links').insert(row).returning('*');
  return link!;
}

export const findPortalLinkByHash = (conn: Conn, tokenHash: string): Promise<PortalLinkRow | undefined> =>
  conn<PortalLinkRow>('portal_links').where({ token_hash: tokenHash }).first();

export const findPortalLink = (conn: Conn, accountId: string, id: string): Promise<PortalLinkRow | undefined> =>
  conn<PortalLinkRow>('portal_links').where({ account_id: accountId, id }).first();

export const listPortalLinks = (conn: Conn, accountId: string, page: PageQuery) =>
  paginate<PortalLinkRow>(conn('portal_links').where({ account_id: accountId }), 'portal_links', page);

/** Revokes once: the caller that gets no row either lost the race or the link was already revoked. */
export async function revokePortalLinkRow(conn: Conn, accountId: string, id: string) {
  const [row] = await conn<PortalLinkRow>('portal_links')
    .where({ account_id: accountId, id })
    .whereNull('revoked_at')
    .update({ revoked_at: conn.fn.now() as unknown as Date })
    .returning('*');
  return row;
}
