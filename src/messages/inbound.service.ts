import { z } from 'zod';
import { recordActivity } from '../activity/activity.repository.js';
import { transactWithEvents } from '../events/emit.js';
import { findInboxByToken } from '../inboxes/inboxes.repository.js';
import { addressFor } from '../inboxes/inboxes.schema.js';
import { safeEqual, sha256Hex } from '../platform/crypto.js';
import type { Deps } from '../app/deps.js';
import { AppError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { parseInput } from '../platform/validation.js';
import { threadWith } from './thread.js';
import { insertMessage } from './messages.repository.js';
import { inboundInput, toMessageResponse } from './messages.schema.js';

const badToken = () =>
  new AppError(
    'invalid_credential',
    'Send the inbox ingest token (shown once at inbox creation) in the X-Inbound-Token header',
  );

/**
 * Accepts a message delivered to an inbox by its ingest token. The token is looked up by its SHA-256 (so no
 * comparison runs on the secret), and the stored hash is compared again in constant time. A wrong token stores
 * nothing. The sender is linked to its contact, or a contact is created; message.received is emitted.
 */
export async function receiveInbound(deps: Deps, inboxId: string, token: string | undefined, body: unknown) {
  if (!token) throw badToken();
  const tokenHash = sha256Hex(token);
  const inbox = await findInboxByToken(deps.db, inboxId, tokenHash);
  if (!inbox || !safeEqual(inbox.ingest_token_hash, tokenHash)) throw badToken();
  if (inbox.deleted_at) throw new AppError('inbox_deleted', 'This inbox was deleted and no longer receives messages');
  // The body is read only once the token is proven: a caller without it learns nothing, not even the schema.
  const input = parseInput(inboundInput, body);
  const from = parseInput(z.object({ from: addressFor(inbox.channel) }), { from: input.from }).from;
  const accountId = inbox.account_id;

  const message = await transactWithEvents(deps, accountId, async (trx, emit) => {
    const { contact, conversation } = await threadWith(trx, emit, inbox, from, input.subject ?? null);
    const row = await insertMessage(trx, accountId, {
      id: newId('msg'),
      agent_id: inbox.agent_id,
      conversation_id: conversation.id,
      inbox_id: inbox.id,
      contact_id: contact.id,
      run_id: null,
      direction: 'inbound',
      channel: inbox.channel,
      status: 'received',
      from_address: from,
      to_address: inbox.address,
      subject: input.subject ?? null,
      text: input.text,
    });
    await emit({ type: 'message.received', inboxId: inbox.id, messageId: row.id, payload: toMessageResponse(row) });
    await recordActivity(trx, accountId, {
      agentId: row.agent_id,
      kind: 'message.received',
      subjectType: 'message',
      subjectId: row.id,
      summary: `Received ${row.channel} from ${from}`,
      data: { conversationId: conversation.id, contactId: contact.id },
    });
    return row;
  });
  return toMessageResponse(message);
}
