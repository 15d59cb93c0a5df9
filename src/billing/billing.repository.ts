import type { Conn } from '../platform/db.js';

export interface LedgerEntry {
  delta: number;
  reason: string;
  keyId?: string | null;
  userId?: string | null;
  agentId?: string | null;
  messageId?: string | null;
  runId?: string | null;
}

/** Takes credits from the balance unless it would go below zero; the row lock serialises concurrent charges. */
export interface Debited {
  plan: string;
  /** After the debit. */
  credits_balance: number;
  low_credits_threshold: number;
}

export async function debitAccount(conn: Conn, accountId: string, amount: number): Promise<Debited | undefined> {
  const [row] = await conn('accounts')
    .where({ id: accountId })
    .andWhere('credits_balance', '>=', amount)
    .decrement('credits_balance', amount)
    .returning(['plan', 'credits_balance', 'low_credits_threshold']);
  return row as Debited | undefined;
}

export async function creditAccount(
  conn: Conn,
  accountId: string,
  amount: number,
): Promise<{ plan: string; credits_balance: number } | undefined> {
  const [row] = await conn('accounts')
    .where({ id: accountId })
    .increment('credits_balance', amount)
    .returning(['plan', 'credits_balance']);
  return row as { plan: string; credits_balance: number } | undefined;
}

export async function insertLedgerEntry(conn: Conn, accountId: string, e: LedgerEntry): Promise<void> {
  await conn('credit_ledger').insert({
    account_id: accountId,
    delta: e.delta,
    reason: e.reason,
    key_id: e.keyId ?? null,
    user_id: e.userId ?? null,
    agent_id: e.agentId ?? null,
    message_id: e.messageId ?? null,
    run_id: e.runId ?? null,
  });
}

/** Credits spent since `since`, per reason. */
export async function sumSpendByReason(
  conn: Conn,
  accountId: string,
  since: Date,
): Promise<Array<{ reason: string; credits: number; count: number }>> {
  const rows = await conn('credit_ledger')
    .where({ account_id: accountId })
    .andWhere('delta', '<', 0)
    .andWhere('created_at', '>=', since)
    .groupBy('reason')
    .orderBy('reason')
    .select('reason', conn.raw('-sum(delta)::bigint AS credits'), conn.raw('count(*)::bigint AS count'));
  return rows as Array<{ reason: string; credits: number; count: number }>;
}
