import { recordActivity } from '../activity/activity.repository.js';
import { transactWithEvents } from '../events/emit.js';
import { findInbox } from '../inboxes/inboxes.repository.js';
import type { Deps } from '../app/deps.js';
import * as repo from './messages.repository.js';
import { toMessageResponse } from './messages.schema.js';
import { sendAccountEmail, sendAccountSms } from './transport.js';
import { transaction } from '../platform/transaction.js';

/**
 * The send worker's work: hands a queued message to its transport, then marks it sent and emits message.sent
 * in one transaction. Anything not queued (already sent, failed, still a draft) is left alone, so a duplicate
 * job is a no-op. A transport error is thrown for BullMQ to retry; on the last attempt the message is failed.
 * If the process dies between the transport accepting and the commit, the retry sends again (at least once);
 * the Message-ID header (our message id) lets a receiver recognise the duplicate.
 */
export async function deliverQueuedMessage(
  deps: Deps,
  messageId: string,
  attempt: { last: boolean },
): Promise<'sent' | 'skipped'> {
  const message = await repo.findMessageById(deps.db, messageId);
  if (!message || message.status !== 'queued') return 'skipped';
  const accountId = message.account_id;
  try {
    const inbox = message.inbox_id
      ? await findInbox(deps.db, accountId, message.inbox_id, { includeDeleted: true })
      : undefined;
    const from = inbox?.address ?? message.from_address ?? '';
    const to = message.to_address ?? '';
    if (message.channel === 'sms') {
      await sendAccountSms(deps, accountId, { from, to, text: message.text, messageId: message.id });
    } else {
      await sendAccountEmail(deps, accountId, {
        from,
        to,
        subject: message.subject ?? '',
        text: message.text,
        messageId: message.id,
      });
    }
  } catch (err) {
    if (attempt.last) await failMessage(deps, accountId, messageId, err instanceof Error ? err.message : String(err));
    throw err;
  }
  await transactWithEvents(deps, accountId, async (trx, emit) => {
    const sent = await repo.transitionMessage(trx, accountId, messageId, 'queued', 'sent', { sent: true, error: null });
    if (!sent) return;
    await emit({ type: 'message.sent', inboxId: sent.inbox_id, messageId: sent.id, payload: toMessageResponse(sent) });
    await recordActivity(trx, accountId, {
      agentId: sent.agent_id,
      kind: 'message.sent',
      subjectType: 'message',
      subjectId: sent.id,
      summary: `Sent ${sent.channel} to ${sent.to_address}`,
    });
  });
  return 'sent';
}

async function failMessage(deps: Deps, accountId: string, messageId: string, error: string): Promise<void> {
  await transaction(deps.db, async (trx) => {
    const failed = await repo.transitionMessage(trx, accountId, messageId, 'queued', 'failed', {
      error: error.slice(0, 500),
    });
    if (failed) {
      await recordActivity(trx, accountId, {
        agentId: failed.agent_id,
        kind: 'message.failed',
        subjectType: 'message',
        subjectId: failed.id,
        summary: `Sending ${failed.channel} to ${failed.to_address} failed`,
        data: { error: failed.error },
      });
    }
  });
}
