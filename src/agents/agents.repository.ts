import type { Conn } from '../platform/db.js';

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
