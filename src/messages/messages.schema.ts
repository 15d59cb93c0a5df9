import { z } from 'zod';
import { iso } from '../platform/clock.js';
import { pageQuery } from '../platform/pagination.js';
import { text } from '../platform/input.js';
import { idString, outText, timestamp } from '../platform/output.js';

/** The largest message body accepted (characters). Bigger bodies are refused with 400, before anything is stored. */
export const MAX_TEXT = 100_000;
const messageText = text().min(1).max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`);
const subject = text()
  .max(998)
  .regex(/^[^\r\n]*$/, 'must be one line')
  .optional();

export const draftInput = z
  .object({
    inboxId: text().min(1).max(100),
    to: text().max(254),
    subject,
    text: messageText,
  })
  .strict();

export const inboundInput = z.object({ from: text().max(254), subject, text: messageText }).strict();

export const chatInput = z.object({ message: messageText }).strict();

export const messageListQuery = pageQuery
  .extend({
    agentId: text().max(100).optional(),
    conversationId: text().max(100).optional(),
    inboxId: text().max(100).optional(),
    status: z.enum(['received', 'draft', 'queued', 'sent', 'failed']).optional(),
    direction: z.enum(['inbound', 'outbound']).optional(),
  })
  .strict();

export const conversationListQuery = pageQuery.extend({ agentId: text().max(100).optional() }).strict();

export type DraftInput = z.infer<typeof draftInput>;
export type InboundInput = z.infer<typeof inboundInput>;
export type MessageListQuery = z.infer<typeof messageListQuery>;
export type MessageChannel = 'email' | 'sms' | 'chat';
export type MessageStatus = 'received' | 'draft' | 'queued' | 'sent' | 'failed';

export interface MessageRow {
  id: string;
  account_id: string;
  agent_id: string;
  conversation_id: string;
  inbox_id: string | null;
  contact_id: string | null;
  run_id: string | null;
  direction: 'inbound' | 'outbound';
  channel: MessageChannel;
  status: MessageStatus;
  from_address: string | null;
  to_address: string | null;
  subject: string | null;
  text: string;
  error: string | null;
  charged_credits: number;
  sent_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ConversationRow {
  id: string;
  account_id: string;
  agent_id: string;
  channel: MessageChannel;
  inbox_id: string | null;
  contact_id: string | null;
  thread_key: string;
  subject: string | null;
  last_message_at: Date;
  created_at: Date;
  updated_at: Date;
}

export const toMessageResponse = (m: MessageRow) => ({
  id: m.id,
  agentId: m.agent_id,
  conversationId: m.conversation_id,
  inboxId: m.inbox_id,
  contactId: m.contact_id,
  runId: m.run_id,
  direction: m.direction,
  channel: m.channel,
  status: m.status,
  from: m.from_address,
  to: m.to_address,
  subject: m.subject,
  text: m.text,
  error: m.error,
  sentAt: iso(m.sent_at),
  createdAt: iso(m.created_at),
  updatedAt: iso(m.updated_at),
});
export type MessageResponse = ReturnType<typeof toMessageResponse>;

/** A conversation with its most recent messages (oldest first), so one list call shows what was said. */
export const toConversationResponse = (c: ConversationRow, recent: MessageRow[]) => ({
  id: c.id,
  agentId: c.agent_id,
  channel: c.channel,
  inboxId: c.inbox_id,
  contactId: c.contact_id,
  subject: c.subject,
  lastMessageAt: iso(c.last_message_at),
  createdAt: iso(c.created_at),
  recentMessages: recent.map(toMessageResponse),
});

export const messageResponse = z
  .object({
    id: idString('msg'),
    agentId: idString('agt'),
    conversationId: idString('conv'),
    inboxId: idString('inb').nullable(),
    contactId: idString('ct').nullable(),
    runId: idString('run').nullable(),
    direction: z.enum(['inbound', 'outbound']),
    channel: z.enum(['email', 'sms', 'chat']),
    status: z.enum(['received', 'draft', 'queued', 'sent', 'failed']),
    from: outText()
      .meta({ description: 'An email address, or an E.164 number for sms', examples: ['ada@example.com'] })
      .nullable(),
    to: outText()
      .meta({ description: 'An email address, or an E.164 number for sms', examples: ['support@example.com'] })
      .nullable(),
    subject: outText()
      .meta({ examples: ['Where is my order?'] })
      .nullable(),
    text: outText().meta({ examples: ['Hi, my order has not arrived yet. Can you check?'] }),
    error: outText().nullable(),
    sentAt: timestamp().nullable(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  })
  .meta({ id: 'Message' });

export const conversationResponse = z
  .object({
    id: idString('conv'),
    agentId: idString('agt'),
    channel: z.enum(['email', 'sms', 'chat']),
    inboxId: idString('inb').nullable(),
    contactId: idString('ct').nullable(),
    subject: outText().nullable(),
    lastMessageAt: timestamp(),
    createdAt: timestamp(),
    recentMessages: z.array(messageResponse).describe('The most recent messages, oldest first'),
  })
  .meta({ id: 'Conversation' });
