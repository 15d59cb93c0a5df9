import { z } from 'zod';
import { iso } from '../platform/clock.js';
import { emailAddress, phoneNumber } from '../contacts/contacts.schema.js';
import { text } from '../platform/input.js';
import { idString, outText, timestamp } from '../platform/output.js';

export type Channel = 'email' | 'sms';

/** The address format a channel uses; sms inboxes are E.164 numbers. */
export const addressFor = (channel: Channel) => (channel === 'email' ? emailAddress : phoneNumber);

export const inboxInput = z
  .object({
    agentId: text().min(1).max(100),
    channel: z.enum(['email', 'sms']),
    address: text().max(254),
    name: text().trim().min(1).max(200).optional(),
  })
  .strict()
  .transform((v, ctx) => {
    const address = addressFor(v.channel).safeParse(v.address);
    if (!address.success) {
      ctx.addIssue({ code: 'custom', path: ['address'], message: address.error.issues[0]!.message });
      return z.NEVER;
    }
    return { ...v, address: address.data };
  });

export const inboxPatch = z
  .object({
    name: text().trim().min(1).max(200).nullable().optional(),
    address: text().max(254).optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, 'send at least one of name, address');

export type InboxInput = z.infer<typeof inboxInput>;
export type InboxPatch = z.infer<typeof inboxPatch>;

export interface InboxRow {
  id: string;
  account_id: string;
  agent_id: string;
  channel: Channel;
  address: string;
  name: string | null;
  ingest_token_hash: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export const toInboxResponse = (i: InboxRow) => ({
  id: i.id,
  agentId: i.agent_id,
  channel: i.channel,
  address: i.address,
  name: i.name,
  status: i.deleted_at ? ('deleted' as const) : ('active' as const),
  createdAt: iso(i.created_at),
  updatedAt: iso(i.updated_at),
  deletedAt: iso(i.deleted_at),
});

export const inboxResponse = z
  .object({
    id: idString('inb'),
    agentId: idString('agt'),
    channel: z.enum(['email', 'sms']),
    address: outText().meta({ examples: ['support@example.com'] }),
    name: outText()
      .meta({ examples: ['Support'] })
      .nullable(),
    status: z.enum(['active', 'deleted']),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    deletedAt: timestamp().nullable(),
  })
  .meta({ id: 'Inbox' });

/** The create response: the inbox and its ingest token for POST /v1/inbound/:inboxId, shown this once. */
export const inboxWithTokenResponse = inboxResponse
  .extend({
    ingestToken: outText()
      .nullable()
      .describe(
        'Send as X-Inbound-Token to POST /v1/inbound/{inboxId}; shown once (null in the replay of an answer to a repeated Idempotency-Key: a secret is never stored)',
      ),
  })
  .meta({ id: 'InboxWithIngestToken' });
