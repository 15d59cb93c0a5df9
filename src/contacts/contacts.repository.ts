import type { Conn } from '../platform/db.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import type { ContactRow } from './contacts.schema.js';

export async function findContact(conn: Conn, accountId: string, contactId: string): Promise<ContactRow | undefined> {
  return conn<ContactRow>('contacts').where({ account_id: accountId, id: contactId }).first();
}

export async function findContactByAddress(
  conn: Conn,
  accountId: string,
  by: { email: string } | { phone: string },
): Promise<ContactRow | undefined> {
  return conn<ContactRow>('contacts')
    .where({ account_id: accountId, ...by })
    .first();
}

export async function insertContact(
  conn: Conn,
  accountId: string,
  c: {
    id: string;
    agentId: string | null;
    name: string | null;
    email: string | null;
    phone: string | null;
    metadata: Record<string, unknown>;
  },
): Promise<ContactRow> {
  const [row] = await conn<ContactRow>('contacts')
    .insert({
      id: c.id,
      account_id: accountId,
      agent_id: c.agentId,
      name: c.name,
      email: c.email,
      phone: c.phone,
      metadata: JSON.stringify(c.metadata) as unknown as Record<string, unknown>,
    })
    .returning('*');
  return row!;
}

export async function updateContact(
  conn: Conn,
  accountId: string,
  contactId: string,
  patch: { name?: string | null; email?: string | null; phone?: string | null; metadata?: Record<string, unknown> },
): Promise<ContactRow | undefined> {
  const values: Record<string, unknown> = { updated_at: conn.fn.now() };
  for (const key of ['name', 'email', 'phone'] as const) if (patch[key] !== undefined) values[key] = patch[key];
  if (patch.metadata !== undefined) values.metadata = JSON.stringify(patch.metadata);
  const [row] = await conn<ContactRow>('contacts')
    .where({ account_id: accountId, id: contactId })
    .update(values)
    .returning('*');
  return row;
}

/** With agentId: contacts linked to that agent or that conversed with it. */
export function listContacts(conn: Conn, accountId: string, filter: { agentId?: string }, page: PageQuery) {
  const query = conn('contacts').select('contacts.*').where('contacts.account_id', accountId);
  if (filter.agentId) {
    const agentId = filter.agentId;
    query.andWhere((q) => {
      q.where('contacts.agent_id', agentId).orWhereExists(
        conn('conversations')
          .select(conn.raw('1'))
          .where('conversations.account_id', accountId)
          .andWhere('conversations.agent_id', agentId)
          .andWhereRaw('conversations.contact_id = contacts.id'),
      );
    });
  }
  return paginate<ContactRow>(query, 'contacts', page);
}
