import type { Caller, Principal } from '../auth/principal.js';
import { recordActivity } from '../activity/activity.repository.js';
import { recordAudit } from '../audit/audit.repository.js';
import { assertAgentReach } from '../agents/agent-reach.js';
import { findAgent } from '../agents/agents.repository.js';
import { chargeCredits } from '../billing/billing.service.js';
import { CHAT_THREAD, upsertConversation } from '../messages/conversations.repository.js';
import { insertMessage } from '../messages/messages.repository.js';
import { iso } from '../platform/clock.js';
import type { Deps } from '../app/deps.js';
import { AppError, notFound } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { enqueue, jobs } from '../platform/queues.js';
import { transactWithEvents } from '../events/emit.js';
import * as repo from './runs.repository.js';

const fromAddressOf = (p: Principal) =>
  p.type === 'session' ? `user:${p.userId}` : p.oauth ? `oauth:${p.keyId}` : `key:${p.keyId}`;

/**
 * Chat: stores the message in the agent's chat conversation, creates a queued run and charges one trigger,
 * all in one transaction; the run job is enqueued after commit (job id = run id). A paused agent is refused
 * with 409 agent_paused before anything is charged. 402/429 from the charge roll everything back.
 */
export async function triggerAgent(deps: Deps, caller: Caller, agentId: string, message: string) {
  const { principal, ip } = caller;
  assertAgentReach(principal, agentId);
  const accountId = principal.accountId;
  const price = deps.config.prices.agentTrigger;
  const run = await transactWithEvents(deps, accountId, async (trx, emit) => {
    const agent = await findAgent(trx, accountId, agentId);
    if (!agent) throw notFound('Agent');
    if (agent.status === 'paused')
      throw new AppError(
        'agent_paused',
        'This agent is paused and does not run; resume it with PATCH {"status":"active"}',
      );
    const conversation = await upsertConversation(trx, accountId, {
      agentId,
      channel: 'chat',
      inboxId: null,
      contactId: null,
      threadKey: CHAT_THREAD,
      subject: null,
    });
    const runId = newId('run');
    const inputId = newId('msg');
    const row = await repo.insertRun(trx, accountId, {
      id: runId,
      agentId,
      conversationId: conversation.id,
      inputMessageId: inputId,
      chargedCredits: price,
    });
    await insertMessage(trx, accountId, {
      id: inputId,
      agent_id: agentId,
      conversation_id: conversation.id,
      inbox_id: null,
      contact_id: null,
      run_id: runId,
      direction: 'inbound',
      channel: 'chat',
      status: 'received',
      from_address: fromAddressOf(principal),
      to_address: null,
      subject: null,
      text: message,
    });
    await chargeCredits(deps, trx, emit, principal, price, 'agent.trigger', { agentId, runId, messageId: inputId });
    await recordActivity(trx, accountId, {
      agentId,
      kind: 'run.queued',
      subjectType: 'run',
      subjectId: runId,
      summary: 'Chat message received; run queued',
      data: { credits: price },
    });
    await recordAudit(trx, principal, {
      action: 'agent.triggered',
      targetType: 'run',
      targetId: runId,
      ip: ip ?? null,
      details: { agentId, credits: price },
    });
    return row;
  });
  await enqueueRun(deps, run.id);
  return { run: { id: run.id, agentId: run.agent_id, status: run.status, createdAt: iso(run.created_at) } };
}

/** After commit. If Redis refuses, the run stays queued and the maintenance sweep enqueues it again. */
export async function enqueueRun(deps: Deps, runId: string): Promise<void> {
  try {
    await enqueue(deps.queues, deps.config, jobs.runAgent, { runId }, { jobId: runId });
  } catch (err) {
    deps.logger.warn({ err, runId }, 'run job not enqueued; the queued run will be picked up by the sweep');
  }
}

export async function getRun(deps: Deps, principal: Principal, agentId: string, runId: string) {
  assertAgentReach(principal, agentId);
  const run = await repo.findRun(deps.db, principal.accountId, runId);
  if (!run || run.agent_id !== agentId) throw notFound('Run');
  return repo.toRunResponse(run);
}
