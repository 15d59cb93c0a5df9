import { z } from 'zod';
import type { Caller, Principal } from '../auth/principal.js';
import { recordActivity } from '../activity/activity.repository.js';
import { assertAccountWide, assertAgentReach } from '../agents/agent-reach.js';
import { findAgent } from '../agents/agents.repository.js';
import { chargeCredits } from '../billing/billing.service.js';
import { findInbox } from '../inboxes/inboxes.repository.js';
import { addressFor } from '../inboxes/inboxes.schema.js';
import { transactWithEvents } from '../events/emit.js';
import type { Deps } from '../app/deps.js';
import { AppError, notFound } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { mapPage, type PageQuery } from '../platform/pagination.js';
import { enqueue, jobs } from '../platform/queues.js';
import { parseInput } from '../platform/validation.js';
import * as conversations from './conversations.repository.js';
import { threadWith } from './thread.js';
import * as repo from './messages.repository.js';
import {
  toConversationResponse,
  toMessageResponse,
  type DraftInput,
  type MessageListQuery,
} from './messages.schema.js';

const RECENT_PER_CONVERSATION = 10;

export async function listMessages(deps: Deps, principal: Principal, query: MessageListQuery) {
  assertAccountWide(principal);
  const { limit, cursor, ...filter } = query;
  return mapPage(await repo.listMessages(deps.db, principal.accountId, filter, { limit, cursor }), toMessageResponse);
}

export async function getMessage(deps: Deps, principal: Principal, messageId: string) {
  assertAccountWide(principal);
  const message = await repo.findMessage(deps.db, principal.accountId, messageId);
  if (!message) throw notFound('Message');
  return toMessageResponse(message);
}

export async function listDrafts(deps: Deps, principal: Principal, page: PageQuery) {
  assertAccountWide(principal);
  return mapPage(await repo.listMessages(deps.db, principal.accountId, { status: 'draft' }, page), toMessageResponse);
}

export async function listAgentDrafts(deps: Deps, principal: Principal, agentId: string, page: PageQuery) {
  await assertAgentExists(deps, principal, agentId);
  return mapPage(
    await repo.listMessages(deps.db, principal.accountId, { agentId, status: 'draft' }, page),
    toMessageResponse,
  );
}

export async function listConversations(
  deps: Deps,
  principal: Principal,
  page: PageQuery,
  filter: { agentId?: string } = {},
) {
  assertAccountWide(principal);
  return pageOfConversations(deps, principal.accountId, filter, page);
}

/** The agent's conversations (email, sms and chat), each with its latest messages, newest conversation first. */
export async function listAgentConversations(deps: Deps, principal: Principal, agentId: string, page: PageQuery) {
  await assertAgentExists(deps, principal, agentId);
  return pageOfConversations(deps, principal.accountId, { agentId }, page);
}

async function pageOfConversations(deps: Deps, accountId: string, filter: { agentId?: string }, page: PageQuery) {
  const result = await conversations.listConversations(deps.db, accountId, filter, page);
  const recent = await conversations.recentMessages(
    deps.db,
    accountId,
    result.data.map((c) => c.id),
    RECENT_PER_CONVERSATION,
  );
  return mapPage(result, (c) =>
    toConversationResponse(
      c,
      recent.filter((m) => m.conversation_id === c.id),
    ),
  );
}

async function assertAgentExists(deps: Deps, principal: Principal, agentId: string) {
  assertAgentReach(principal, agentId);
  if (!(await findAgent(deps.db, principal.accountId, agentId))) throw notFound('Agent');
}

/** A draft from an inbox to a recipient (linked to, or created as, a contact). Sending is a separate step. */
export async function createDraft(deps: Deps, caller: Caller, input: DraftInput) {
  const { principal } = caller;
  assertAccountWide(principal);
  const accountId = principal.accountId;
  const message = await transactWithEvents(deps, accountId, async (trx, emit) => {
    const inbox = await findInbox(trx, accountId, input.inboxId, { includeDeleted: true });
    if (!inbox) throw notFound('Inbox');
    if (inbox.deleted_at) throw inboxDeleted();
    const to = parseInput(z.object({ to: addressFor(inbox.channel) }), { to: input.to }).to;
    const { contact, conversation } = await threadWith(trx, emit, inbox, to, input.subject ?? null);
    const row = await repo.insertMessage(trx, accountId, {
      id: newId('msg'),
      agent_id: inbox.agent_id,
      conversation_id: conversation.id,
      inbox_id: inbox.id,
      contact_id: contact.id,
      run_id: null,
      direction: 'outbound',
      channel: inbox.channel,
      status: 'draft',
      from_address: inbox.address,
      to_address: to,
      subject: input.subject ?? null,
      text: input.text,
    });
    await emit({ type: 'message.drafted', inboxId: inbox.id, messageId: row.id, payload: toMessageResponse(row) });
    await recordActivity(trx, accountId, {
      agentId: row.agent_id,
      kind: 'message.drafted',
      subjectType: 'message',
      subjectId: row.id,
      summary: `Draft to ${to}`,
      data: { conversationId: conversation.id },
    });
    return row;
  });
  return toMessageResponse(message);
}

const inboxDeleted = () =>
  new AppError('inbox_deleted', 'The inbox of this message was deleted; it can no longer send or receive');

/**
 * Queues a draft for sending: charges its price (email 1, sms 2) and moves it draft → queued in one transaction
 * under a row lock, then enqueues the send job (job id = message id). A second call finds it queued: 409 conflict,
 * nothing charged, nothing sent twice. message.sent is emitted by the worker once the transport accepted it.
 */
export async function sendMessage(deps: Deps, caller: Caller, messageId: string) {
  const { principal } = caller;
  assertAccountWide(principal);
  const accountId = principal.accountId;
  const message = await transactWithEvents(deps, accountId, async (trx, emit) => {
    const current = await repo.findMessageForUpdate(trx, accountId, messageId);
    if (!current) throw notFound('Message');
    if (current.status !== 'draft') {
      throw new AppError('conflict', `Only a draft can be sent; this message is ${current.status}`, {
        status: current.status,
      });
    }
    const inbox = current.inbox_id
      ? await findInbox(trx, accountId, current.inbox_id, { includeDeleted: true })
      : undefined;
    if (!inbox) throw notFound('Inbox');
    if (inbox.deleted_at) throw inboxDeleted();
    const price = current.channel === 'sms' ? deps.config.prices.sms : deps.config.prices.email;
    await chargeCredits(deps, trx, emit, principal, price, `message.send.${current.channel}`, {
      agentId: current.agent_id,
      messageId,
    });
    const queued = (await repo.transitionMessage(trx, accountId, messageId, 'draft', 'queued', {
      charged_credits: price,
    }))!;
    await recordActivity(trx, accountId, {
      agentId: queued.agent_id,
      kind: 'message.queued',
      subjectType: 'message',
      subjectId: queued.id,
      summary: `Sending ${queued.channel} to ${queued.to_address}`,
      data: { credits: price },
    });
    return queued;
  });
  await enqueueSend(deps, message.id);
  return toMessageResponse(message);
}

/** After commit. If Redis refuses, the message stays queued and the maintenance sweep enqueues it again. */
export async function enqueueSend(deps: Deps, messageId: string): Promise<void> {
  try {
    await enqueue(deps.queues, deps.config, jobs.sendMessage, { messageId }, { jobId: messageId });
  } catch (err) {
    deps.logger.warn({ err, messageId }, 'send job not enqueued; the queued message will be picked up by the sweep');
  }
}
