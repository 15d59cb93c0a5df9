import type { Conn } from '../platform/db.js';
import { iso } from '../platform/clock.js';

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface RunRow {
  id: string;
  account_id: string;
  agent_id: string;
  conversation_id: string;
  status: RunStatus;
  input_message_id: string | null;
  reply_message_id: string | null;
  error: string | null;
  charged_credits: number;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export async function insertRun(
  conn: Conn,
  accountId: string,
  r: { id: string; agentId: string; conversationId: string; inputMessageId: string; chargedCredits: number },
): Promise<RunRow> {
  const [row] = await conn<RunRow>('runs')
    .insert({
      id: r.id,
      account_id: accountId,
      agent_id: r.agentId,
      conversation_id: r.conversationId,
      input_message_id: r.inputMessageId,
      charged_credits: r.chargedCredits,
    })
    .returning('*');
  return row!;
}

export async function findRun(conn: Conn, accountId: string, runId: string): Promise<RunRow | undefined> {
  return conn<RunRow>('runs').where({ account_id: accountId, id: runId }).first();
}

/** For the run worker, which is given a run id only. */
export async function findRunById(conn: Conn, runId: string): Promise<RunRow | undefined> {
  return conn<RunRow>('runs').where({ id: runId }).first();
}

/** queued → running (also running → running: a retried attempt after a crash picks the run up again). */
export async function startRun(conn: Conn, accountId: string, runId: string): Promise<RunRow | undefined> {
  const [row] = await conn<RunRow>('runs')
    .where({ account_id: accountId, id: runId })
    .whereIn('status', ['queued', 'running'])
    .update({
      status: 'running',
      started_at: conn.raw('coalesce(started_at, now())'),
      updated_at: conn.fn.now(),
    } as never)
    .returning('*');
  return row;
}

/** running → succeeded | failed, once. */
export async function finishRun(
  conn: Conn,
  accountId: string,
  runId: string,
  outcome: { status: 'succeeded'; replyMessageId: string } | { status: 'failed'; error: string },
): Promise<RunRow | undefined> {
  const values =
    outcome.status === 'succeeded'
      ? { status: 'succeeded', reply_message_id: outcome.replyMessageId, error: null }
      : { status: 'failed', error: outcome.error.slice(0, 500) };
  const [row] = await conn<RunRow>('runs')
    .where({ account_id: accountId, id: runId })
    .whereIn('status', ['queued', 'running'])
    .update({ ...values, finished_at: conn.fn.now(), updated_at: conn.fn.now() } as never)
    .returning('*');
  return row;
}

/** Runs left queued (the enqueue after commit failed); cross-account, for the requeue sweep only. */
export async function findStaleQueuedRuns(conn: Conn, olderThan: Date, limit: number): Promise<string[]> {
  const rows = await conn('runs')
    .select('id')
    .where({ status: 'queued' })
    .where('created_at', '<', olderThan)
    .orderBy('created_at')
    .limit(limit);
  return rows.map((r: { id: string }) => r.id);
}

export const toRunResponse = (r: RunRow) => ({
  id: r.id,
  agentId: r.agent_id,
  conversationId: r.conversation_id,
  status: r.status,
  inputMessageId: r.input_message_id,
  replyMessageId: r.reply_message_id,
  error: r.error,
  chargedCredits: r.charged_credits,
  startedAt: iso(r.started_at),
  finishedAt: iso(r.finished_at),
  createdAt: iso(r.created_at),
});
