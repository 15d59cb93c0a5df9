import type { Conn } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import type { ConversationRow, MessageChannel, MessageRow } from './messages.schema.js';

/** Finds or creates the agent's conversation for a thread, in one statement, and marks it active now. */
export async function upsertConversation(
  conn: Conn,
  accountId: string,
  c: {
    agentId: string;
    channel: MessageChannel;
    inboxId: string | null;
    contactId: string | null;
    threadKey: string;
    subject: string | null;
  },
): Promise<ConversationRow> {
  const [row] = await conn<ConversationRow>('conversations')
    .insert({
      id: newId('conv'),
      account_id: accountId,
      agent_id: c.agentId,
      channel: c.channel,
      inbox_id: c.inboxId,
      contact_id: c.contactId,
      thread_key: c.threadKey,
      subject: c.subject,
    })
    .onConflict(['account_id', 'agent_id', 'thread_key'])
    .merge({ last_message_at: conn.fn.now(), updated_at: conn.fn.now() } as never)
    .returning('*');
  return row!;
}

export async function touchConversation(conn: Conn, accountId: string, conversationId: string): Promise<void> {
  await conn('conversations')
    .where({ account_id: accountId, id: conversationId })
    .update({ last_message_at: conn.fn.now(), updated_at: conn.fn.now() });
}

export const threadKeyFor = (inboxId: string, contactId: string) => `inbox:${inboxId}:contact:${contactId}`;
export const CHAT_THREAD = 'chat';

export function listConversations(conn: Conn, accountId: string, filter: { agentId?: string }, page: PageQuery) {
  const query = conn('conversations').where({ account_id: accountId });
  if (filter.agentId) query.andWhere({ agent_id: filter.agentId });
  return paginate<ConversationRow>(query, 'conversations', page);
}

/** The last `perConversation` messages of each conversation, oldest first. */
export async function recentMessages(
  conn: Conn,
  accountId: string,
  conversationIds: string[],
  perConversation: number,
): Promise<MessageRow[]> {
  if (conversationIds.length === 0) return [];
  const ranked = conn('messages')
    .select(
      'messages.*',
      conn.raw('row_number() over (partition by conversation_id order by created_at desc, id desc) as rn'),
    )
    .where({ account_id: accountId })
    .whereIn('conversation_id', conversationIds)
    .as('ranked');
  const rows = (await conn(ranked)
    .select('*')
    .where('rn', '<=', perConversation)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])) as Array<MessageRow & { rn?: number }>;
  return rows.map(({ rn: _rn, ...m }) => m as MessageRow);
}
