import type { Caller, Principal } from '../auth/principal.js';
import { recordActivity } from '../activity/activity.repository.js';
import { recordAudit } from '../audit/audit.repository.js';
import { transactWithEvents } from '../events/emit.js';
import type { Deps } from '../app/deps.js';
import { AppError, fieldError, notFound } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { mapPage, type PageQuery } from '../platform/pagination.js';
import { assertAccountWide, assertAgentReach, isAgentKey } from './agent-reach.js';
import * as repo from './agents.repository.js';
import { inspectJson } from '../platform/json-inspect.js';
import { knownConfig, MAX_CONFIG_BYTES, toAgentResponse, type AgentInput, type AgentPatch } from './agents.schema.js';
import { mergePatch } from './merge-patch.js';
import { transaction } from '../platform/transaction.js';

export async function listAgents(deps: Deps, principal: Principal, page: PageQuery) {
  assertAccountWide(principal);
  return mapPage(await repo.listAgents(deps.db, principal.accountId, page), toAgentResponse);
}

export async function createAgent(deps: Deps, caller: Caller, input: AgentInput) {
  const { principal, ip } = caller;
  assertAccountWide(principal);
  const config = validateConfig(input.config ?? {});
  const agent = await transaction(deps.db, async (trx) => {
    const row = await repo.insertAgent(trx, principal.accountId, { id: newId('agt'), name: input.name, config });
    await recordActivity(trx, principal.accountId, {
      agentId: row.id,
      kind: 'agent.created',
      subjectType: 'agent',
      subjectId: row.id,
      summary: `Agent "${row.name}" created`,
    });
    await recordAudit(trx, principal, {
      action: 'agent.created',
      targetType: 'agent',
      targetId: row.id,
      ip: ip ?? null,
    });
    return row;
  });
  return toAgentResponse(agent);
}

/** The agent row, for other services: 404 for an unknown id or another account's agent. */
export async function loadAgent(deps: Deps, principal: Principal, agentId: string) {
  assertAgentReach(principal, agentId);
  const agent = await repo.findAgent(deps.db, principal.accountId, agentId);
  if (!agent) throw notFound('Agent');
  return agent;
}

export async function getAgent(deps: Deps, principal: Principal, agentId: string) {
  return toAgentResponse(await loadAgent(deps, principal, agentId));
}

/**
 * Applies name/status and a JSON merge patch of config under a row lock. A per-agent key may change only config.
 * agent.updated is emitted in the same transaction, and only when something actually changed.
 */
export async function updateAgent(deps: Deps, caller: Caller, agentId: string, patch: AgentPatch) {
  const { principal, ip } = caller;
  assertAgentReach(principal, agentId);
  if (isAgentKey(principal) && (patch.name !== undefined || patch.status !== undefined)) {
    throw new AppError(
      'insufficient_scope',
      'A per-agent key may change only config; name and status need an account key with write:agents or a session',
      { requiredScope: 'write:agents' },
    );
  }
  const accountId = principal.accountId;
  const agent = await transactWithEvents(deps, accountId, async (trx, emit) => {
    const current = await repo.findAgentForUpdate(trx, accountId, agentId);
    if (!current) throw notFound('Agent');
    const next = {
      name: patch.name ?? current.name,
      status: patch.status ?? current.status,
      config: patch.config
        ? validateConfig(mergePatch(current.config, patch.config) as Record<string, unknown>)
        : current.config,
    };
    const changed = (['name', 'status', 'config'] as const).filter(
      (f) => canonicalJson(next[f]) !== canonicalJson(current[f]),
    );
    if (changed.length === 0) return current;
    const updated = (await repo.updateAgent(trx, accountId, agentId, next))!;
    await emit({ type: 'agent.updated', payload: toAgentResponse(updated) });
    const summary = changed.includes('status')
      ? `Agent ${updated.status === 'paused' ? 'paused' : 'resumed'}`
      : `Agent ${changed.join(' and ')} updated`;
    await recordActivity(trx, accountId, {
      agentId,
      kind: 'agent.updated',
      subjectType: 'agent',
      subjectId: agentId,
      summary,
      data: { fields: changed },
    });
    await recordAudit(trx, principal, {
      action: 'agent.updated',
      targetType: 'agent',
      targetId: agentId,
      ip: ip ?? null,
      details: { fields: changed },
    });
    return updated;
  });
  return toAgentResponse(agent);
}

/** Checks the keys the service itself reads (runtime, autoReply); field paths are reported under config. */
function validateConfig(config: Record<string, unknown>): Record<string, unknown> {
  const result = knownConfig.safeParse(config);
  if (!result.success) {
    const fields = result.error.issues.map((i) => ({ field: ['config', ...i.path].join('.'), message: i.message }));
    throw new AppError(
      'validation_error',
      `Invalid request: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`,
      { fields },
    );
  }
  const merged = inspectJson(config);
  if (!('bytes' in merged) || merged.bytes > MAX_CONFIG_BYTES) {
    const message = `the merged config exceeds ${MAX_CONFIG_BYTES} bytes of JSON`;
    throw fieldError('config', message);
  }
  return config;
}

/** JSON with sorted keys: jsonb does not keep key order, so plain stringify would see changes that are not. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
