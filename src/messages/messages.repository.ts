import type { Conn } from '../platform/db.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import type { MessageRow, MessageStatus } from './messages.schema.js';

export type NewMessage = Omit<
  MessageRow,
  'account_id' | 'created_at' | 'updated_at' | 'sent_at' | 'error' | 'charged_credits'
> & { sent_at?: Date | null };

export async function insertMessage(conn: Conn, accountId: string, m: NewMessage): Promise<MessageRow> {
  const [row] = await conn<MessageRow>('messages')
    .insert({ ...m, account_id: accountId })
    .returning('*');
  return row!;
}

export async function findMessage(conn: Conn, accountId: string, messageId: string): Promise<MessageRow | undefined> {
  return conn<MessageRow>('messages').where({ account_id: accountId, id: messageId }).first();
}

export async function findMessageForUpdate(
  conn: Conn,
  accountId: string,
  messageId: string,
): Promise<MessageRow | undefined> {
  return conn<MessageRow>('messages').where({ account_id: accountId, id: messageId }).forUpdate().first();
}

/** For the send worker, which is given a message id only. */
export async function findMessageById(conn: Conn, messageId: string): Promise<MessageRow | undefined> {
  return conn<MessageRow>('messages').where({ id: messageId }).first();
}

/** draft → queued → sent | failed; each step is conditional on the previous state, so it happens once. */
export async function transitionMessage(
  conn: Conn,
  accountId: string,
  messageId: string,
  from: MessageStatus,
  to: MessageStatus,
  extra: { charged_credits?: number; error?: string | null; sent?: boolean } = {},
): Promise<MessageRow | undefined> {
  const values: Record<string, unknown> = { status: to, updated_at: conn.fn.now() };
  if (extra.charged_credits !== undefined) values.charged_credits = extra.charged_credits;
  if (extra.error !== undefined) values.error = extra.error;
  if (extra.sent) values.sent_at = conn.fn.now();
  const [row] = await conn<MessageRow>('messages')
    .where({ account_id: accountId, id: messageId, status: from })
    .update(values)
    .returning('*');
  return row;
}

export function listMessages(
  conn: Conn,
  accountId: string,
  filter: {
    agentId?: string;
    conversationId?: string;
    inboxId?: string;
    status?: MessageStatus;
    direction?: 'inbound' | 'outbound';
  },
  page: PageQuery,
) {
  const where: Record<string, string> = { account_id: accountId };
  if (filter.agentId) where.agent_id = filter.agentId;
  if (filter.conversationId) where.conversation_id = filter.conversationId;
  if (filter.inboxId) where.inbox_id = filter.inboxId;
  if (filter.status) where.status = filter.status;
  if (filter.direction) where.direction = filter.direction;
  return paginate<MessageRow>(conn('messages').where(where), 'messages', page);
}

/** Messages left queued (the enqueue after commit failed); cross-account, for the requeue sweep only. */
export async function findStaleQueuedMessages(conn: Conn, olderThan: Date, limit: number): Promise<string[]> {
  const rows = await conn('messages')
    .select('id')
    .where({ status: 'queued' })
    .where('updated_at', '<', olderThan)
    .orderBy('updated_at')
    .limit(limit);
  return rows.map((r: { id: string }) => r.id);
}
