import { linkOrCreateContact } from '../contacts/contacts.service.js';
import type { Emit } from '../events/emit.js';
import type { InboxRow } from '../inboxes/inboxes.schema.js';
import type { Trx } from '../platform/transaction.js';
import * as conversations from './conversations.repository.js';

/**
 * The contact at `address` (linked, or created with contact.created) and the conversation between it and `inbox`'s
 * agent, found or opened: where a message to or from that address belongs, inbound or outbound alike.
 */
export async function threadWith(trx: Trx, emit: Emit, inbox: InboxRow, address: string, subject: string | null) {
  const accountId = inbox.account_id;
  const contact = await linkOrCreateContact(trx, emit, accountId, {
    agentId: inbox.agent_id,
    channel: inbox.channel,
    address,
  });
  const conversation = await conversations.upsertConversation(trx, accountId, {
    agentId: inbox.agent_id,
    channel: inbox.channel,
    inboxId: inbox.id,
    contactId: contact.id,
    threadKey: conversations.threadKeyFor(inbox.id, contact.id),
    subject,
  });
  return { contact, conversation };
}
