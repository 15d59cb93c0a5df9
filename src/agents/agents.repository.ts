import type { Conn } from '../platform/db.js';
import { paginate, type PageQuery } from '../platform/pagination.js';

export interface AgentRow {
  id: string;
  account_id: string;
  name: string;
  status: 'active' | 'paused';
  config: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** Scoped by account: another account's agent is simply not found. */
export async function findAgent(conn: Conn, accountId: string, agentId: string): Promise<AgentRow | undefined> {
  return conn<AgentRow>('agents').where({ account_id: accountId, id: agentId }).first();
}

/** Locks the row for a read-modify-write (config merge patches must not lose each other's keys). */
export async function findAgentForUpdate(
  conn: Conn,
  accountId: string,
  agentId: string,
): Promise<AgentRow | undefined> {
  return conn<AgentRow>('agents').where({ account_id: accountId, id: agentId }).forUpdate().first();
}

export function listAgents(conn: Conn, accountId: string, page: PageQuery) {
  return paginate<AgentRow>(conn('agents').where({ account_id: accountId }), 'agents', page);
}

export async function insertAgent(
  conn: Conn,
  accountId: string,
  a: { id: string; name: string; config: Record<string, unknown> },
): Promise<AgentRow> {
  const [row] = await conn<AgentRow>('agents')
    .insert({
      id: a.id,
      account_id: accountId,
      name: a.name,
      config: JSON.stringify(a.config) as unknown as Record<string, unknown>,
    })
    .returning('*');
  return row!;
}

export async function updateAgent(
  conn: Conn,
  accountId: string,
  agentId: string,
  patch: { name?: string; status?: 'active' | 'paused'; config?: Record<string, unknown> },
): Promise<AgentRow | undefined> {
  const values: Record<string, unknown> = { updated_at: conn.fn.now() };
  if (patch.name !== undefined) values.name = patch.name;
  if (patch.status !== undefined) values.status = patch.status;
  if (patch.config !== undefined) values.config = JSON.stringify(patch.config);
  const [row] = await conn<AgentRow>('agents')
    .where({ account_id: accountId, id: agentId })
    .update(values)
    .returning('*');
  return row;
}
