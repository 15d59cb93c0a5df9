import type { Deps } from '../app/deps.js';
import type { Caller } from '../auth/principal.js';
import { notFound } from '../platform/errors.js';
import { transaction } from '../platform/transaction.js';
import { recordAudit } from '../audit/audit.repository.js';
import { findAgent, findAgentForUpdate } from '../agents/agents.repository.js';
import { invalidateKeyHashes } from './key-cache.js';
import type { NamedLimit } from './named-limits.js';

// An agent's named limits are shared by all its per-agent keys: one budget per limit, whichever key spends it.
// They ride on each key's cached row (src/keys/key-cache.ts), so a change locks the agent's keys and bumps their
// epochs in its transaction, as every key edit does: the next request on every instance sees the new limits.

const limitsOf = (raw: unknown): NamedLimit[] =>
  (Array.isArray(raw) ? (raw as NamedLimit[]) : []).map((l) => ({
    name: l.name,
    limit: l.limit,
    durationMs: l.durationMs,
  }));

export async function getAgentKeyLimits(deps: Deps, accountId: string, agentId: string) {
  const agent = await findAgent(deps.db, accountId, agentId);
  if (!agent) throw notFound('Agent');
  return { agentId, rateLimits: limitsOf((agent as { key_rate_limits?: unknown }).key_rate_limits) };
}

export async function setAgentKeyLimits(deps: Deps, caller: Caller, agentId: string, limits: NamedLimit[]) {
  const { principal, ip } = caller;
  const accountId = principal.accountId;
  return transaction(deps.db, async (trx) => {
    if (!(await findAgentForUpdate(trx, accountId, agentId))) throw notFound('Agent');
    const keys = await trx('api_keys')
      .where({ account_id: accountId, agent_id: agentId })
      .forUpdate()
      .select<Array<{ secret_hash: string; previous_secret_hash: string | null }>>(
        'secret_hash',
        'previous_secret_hash',
      );
    await invalidateKeyHashes(
      deps,
      keys.flatMap((k) => [k.secret_hash, k.previous_secret_hash]),
    );
    await trx('agents')
      .where({ account_id: accountId, id: agentId })
      .update({ key_rate_limits: JSON.stringify(limits), updated_at: trx.fn.now() });
    await recordAudit(trx, principal, {
      action: 'agent.key_rate_limits_set',
      targetType: 'agent',
      targetId: agentId,
      ip,
      details: { rateLimits: limits },
    });
    return { agentId, rateLimits: limitsOf(limits) };
  });
}
