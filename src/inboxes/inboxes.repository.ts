import type { Conn } from '../platform/db.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import type { InboxRow } from './inboxes.schema.js';

/** Live inboxes only, unless asked: a deleted inbox is gone for the API but kept for its messages' history. */
export async function findInbox(
  conn: Conn,
  accountId: string,
  inboxId: string,
  opts: { includeDeleted?: boolean } = {},
): Promise<InboxRow | undefined> {
  const q = conn<InboxRow>('inboxes').where({ account_id: accountId, id: inboxId });
  if (!opts.includeDeleted) q.whereNull('deleted_at');
  return q.first();
}

/** Inbound delivery: the inbox is named by the path and proven by its token, before any account is known. */
export async function findInboxByToken(conn: Conn, inboxId: string, tokenHash: string): Promise<InboxRow | undefined> {
  return conn<InboxRow>('inboxes').where({ id: inboxId, ingest_token_hash: tokenHash }).first();
}

export async function insertInbox(
  conn: Conn,
  accountId: string,
  i: { id: string; agentId: string; channel: string; address: string; name: string | null; tokenHash: string },
): Promise<InboxRow> {
  const [row] = await conn<InboxRow>('inboxes')
    .insert({
      id: i.id,
      account_id: accountId,
      agent_id: i.agentId,
      channel: i.channel as InboxRow['channel'],
      address: i.address,
      name: i.name,
      ingest_token_hash: i.tokenHash,
    })
    .returning('*');
  return row!;
}

export async function updateInbox(
  conn: Conn,
  accountId: string,
  inboxId: string,
  patch: { name?: string | null; address?: string },
): Promise<InboxRow | undefined> {
  const values: Record<string, unknown> = { updated_at: conn.fn.now() };
  if (patch.name !== undefined) values.name = patch.name;
  if (patch.address !== undefined) values.address = patch.address;
  const [row] = await conn<InboxRow>('inboxes')
    .where({ account_id: accountId, id: inboxId })
    .whereNull('deleted_at')
    .update(values)
    .returning('*');
  return row;
}

/** Conditional, so two concurrent deletes produce one deletion (and one event). */
export async function softDeleteInbox(conn: Conn, accountId: string, inboxId: string): Promise<InboxRow | undefined> {
  const [row] = await conn<InboxRow>('inboxes')
    .where({ account_id: accountId, id: inboxId })
    .whereNull('deleted_at')
    .update({ deleted_at: conn.fn.now(), updated_at: conn.fn.now() })
    .returning('*');
  return row;
}

export function listInboxes(conn: Conn, accountId: string, filter: { agentId?: string }, page: PageQuery) {
  const query = conn('inboxes').where({ account_id: accountId }).whereNull('deleted_at');
  if (filter.agentId) query.andWhere({ agent_id: filter.agentId });
  return paginate<InboxRow>(query, 'inboxes', page);
}
