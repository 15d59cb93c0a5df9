import { z } from 'zod';
import { recordActivity } from '../activity/activity.repository.js';
import { findAgent, type AgentRow } from '../agents/agents.repository.js';
import { recentMessages, touchConversation } from '../messages/conversations.repository.js';
import { insertMessage } from '../messages/messages.repository.js';
import type { MessageRow } from '../messages/messages.schema.js';
import type { Deps } from '../app/deps.js';
import { newId } from '../platform/ids.js';
import { toStorableText } from '../platform/text.js';
import * as repo from './runs.repository.js';
import { now } from '../platform/clock.js';
import { transaction } from '../platform/transaction.js';

export const DEFAULT_AUTO_REPLY =
  'Thanks for your message. This agent has no runtime configured yet, so this is an automatic reply.';
const HISTORY = 20;

const runtimeConfig = z.object({ type: z.literal('http'), url: z.string() });
const MAX_REPLY_CHARS = 100_000;
// Room for the longest reply we accept, JSON-escaped (up to 6 bytes per character in the worst case).
const MAX_RUNTIME_ANSWER_BYTES = MAX_REPLY_CHARS * 6 + 1024;
// A runtime is a remote party: a NUL or lone surrogate in its reply (\u0000 in JSON) is replaced, not refused.
const runtimeAnswer = z.object({
  reply: z
    .string()
    .min(1)
    .max(MAX_REPLY_CHARS)
    .transform((r) => toStorableText(r)),
});

/** A failure the runtime gave us; retrying will not change it (bad answer, unusable config). */
class PermanentRunError extends Error {}

/**
 * The run worker's work. queued → running → succeeded (reply stored as a message of the conversation) or failed.
 * A finished run is left alone, so a duplicate job is a no-op. Transient runtime errors are thrown for BullMQ to
 * retry; the last attempt (or a permanent error) marks the run failed.
 */
export async function executeRun(
  deps: Deps,
  runId: string,
  attempt: { last: boolean },
): Promise<'succeeded' | 'failed' | 'skipped'> {
  const run = await repo.findRunById(deps.db, runId);
  if (!run || run.status === 'succeeded' || run.status === 'failed') return 'skipped';
  const accountId = run.account_id;
  const agent = await findAgent(deps.db, accountId, run.agent_id);
  if (!agent) return 'skipped';
  if (agent.status === 'paused') {
    await failRun(deps, run, 'The agent was paused before the run started');
    return 'failed';
  }
  if (!(await repo.startRun(deps.db, accountId, runId))) return 'skipped';

  const history = await recentMessages(deps.db, accountId, [run.conversation_id], HISTORY);
  let reply: string;
  try {
    reply = await produceReply(deps, agent, run, history);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (attempt.last || err instanceof PermanentRunError) {
      await failRun(deps, run, message);
      return 'failed';
    }
    throw err;
  }

  await transaction(deps.db, async (trx) => {
    const replyId = newId('msg');
    await insertMessage(trx, accountId, {
      id: replyId,
      agent_id: agent.id,
      conversation_id: run.conversation_id,
      inbox_id: null,
      contact_id: null,
      run_id: run.id,
      direction: 'outbound',
      channel: 'chat',
      status: 'sent',
      from_address: `agent:${agent.id}`,
      to_address: null,
      subject: null,
      text: reply,
      sent_at: now(),
    });
    const finished = await repo.finishRun(trx, accountId, run.id, { status: 'succeeded', replyMessageId: replyId });
    if (!finished) throw new Error(`run ${run.id} was finished by someone else`);
    await touchConversation(trx, accountId, run.conversation_id);
    await recordActivity(trx, accountId, {
      agentId: agent.id,
      kind: 'run.succeeded',
      subjectType: 'run',
      subjectId: run.id,
      summary: 'Run succeeded; reply stored',
      data: { replyMessageId: replyId, reply: reply.slice(0, 500) },
    });
  });
  return 'succeeded';
}

async function produceReply(deps: Deps, agent: AgentRow, run: repo.RunRow, history: MessageRow[]): Promise<string> {
  const runtime = agent.config.runtime;
  if (runtime === undefined) {
    const auto = agent.config.autoReply;
    return typeof auto === 'string' && auto.length > 0 ? auto : DEFAULT_AUTO_REPLY;
  }
  const parsed = runtimeConfig.safeParse(runtime);
  if (!parsed.success) throw new PermanentRunError('config.runtime must be {"type":"http","url":"https://…"}');
  const input = history.find((m) => m.id === run.input_message_id);
  const body = JSON.stringify({
    runId: run.id,
    agent: { id: agent.id, name: agent.name },
    conversationId: run.conversation_id,
    message: input?.text ?? null,
    messages: history.map((m) => ({
      id: m.id,
      role: m.direction === 'inbound' ? 'user' : 'agent',
      text: m.text,
      createdAt: m.created_at.toISOString(),
    })),
  });
  const res = await deps.http.post(
    parsed.data.url,
    body,
    { 'user-agent': 'Switchboard-Runtime/1', 'x-switchboard-run': run.id },
    { timeoutMs: deps.config.runtime.timeoutMs, maxBodyBytes: MAX_RUNTIME_ANSWER_BYTES },
  );
  if (!res.ok) {
    const message = `runtime call failed: ${res.error} (${res.message})`;
    // Refused targets and unusable URLs will not get better on a retry.
    if (res.error === 'blocked_address' || res.error === 'invalid_url' || res.error === 'redirect')
      throw new PermanentRunError(message);
    throw new Error(message);
  }
  let answer: unknown;
  try {
    answer = JSON.parse(res.body);
  } catch {
    throw new PermanentRunError('runtime answered with something that is not JSON; expected {"reply": "…"}');
  }
  const reply = runtimeAnswer.safeParse(answer);
  if (!reply.success)
    throw new PermanentRunError('runtime answer lacks a non-empty "reply" string; expected {"reply": "…"}');
  return reply.data.reply;
}

async function failRun(deps: Deps, run: repo.RunRow, error: string): Promise<void> {
  await transaction(deps.db, async (trx) => {
    const failed = await repo.finishRun(trx, run.account_id, run.id, { status: 'failed', error });
    if (failed) {
      await recordActivity(trx, run.account_id, {
        agentId: run.agent_id,
        kind: 'run.failed',
        subjectType: 'run',
        subjectId: run.id,
        summary: 'Run failed',
        data: { error: failed.error },
      });
    }
  });
}
