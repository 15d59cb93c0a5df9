import type { Conn } from '../platform/db.js';
import { iso } from '../platform/clock.js';
import { newId } from '../platform/ids.js';
import { paginate, type PageQuery } from '../platform/pagination.js';

export interface ActivityRow {
  id: string;
  account_id: string;
  agent_id: string | null;
  kind: string;
  subject_type: string;
  subject_id: string;
  summary: string;
  data: Record<string, unknown>;
  created_at: Date;
}

export interface NewActivity {
  agentId: string | null;
  kind: string;
  subjectType: 'agent' | 'contact' | 'inbox' | 'message' | 'run';
  subjectId: string;
  summary: string;
  data?: Record<string, unknown>;
}

/** Written in the caller's transaction, so the timeline never shows what was rolled back. */
export async function recordActivity(conn: Conn, accountId: string, a: NewActivity): Promise<void> {
  await conn('activity').insert({
    id: newId('act'),
    account_id: accountId,
    agent_id: a.agentId,
    kind: a.kind,
    subject_type: a.subjectType,
    subject_id: a.subjectId,
    summary: a.summary,
    data: JSON.stringify(a.data ?? {}),
  });
}

export function listActivity(conn: Conn, accountId: string, filter: { agentId?: string }, page: PageQuery) {
  const query = conn('activity').where({ account_id: accountId });
  if (filter.agentId) query.andWhere({ agent_id: filter.agentId });
  return paginate<ActivityRow>(query, 'activity', page);
}

export const toActivityResponse = (r: ActivityRow) => ({
  id: r.id,
  agentId: r.agent_id,
  kind: r.kind,
  subject: { type: r.subject_type, id: r.subject_id },
  summary: r.summary,
  data: r.data,
  createdAt: iso(r.created_at),
});
