import type { Deps } from '../app/deps.js';
import { AppError, fieldError, notFound } from '../platform/errors.js';
import { now } from '../platform/clock.js';
import { newId } from '../platform/ids.js';
import type { PageQuery } from '../platform/pagination.js';
import type { Caller, Principal } from '../auth/principal.js';
import { generateSecret, prefixOf } from '../auth/key-secret.js';
import { invalidateKeyHashes } from './key-cache.js';
import { transaction, type Trx } from '../platform/transaction.js';
import { recordAudit } from '../audit/audit.repository.js';
import { findAccount } from '../accounts/accounts.repository.js';
import { findAgent } from '../agents/agents.repository.js';
import * as repo from './keys.repository.js';
import type { KeyRow } from './keys.repository.js';
import type { AccountKeyInput, AgentKeyInput, KeyPatch } from './keys.schema.js';
import { resolveScopes } from './key-scopes.js';
import { remainingCredits } from './spend-period.js';
import { keyEventRef } from './key-events.js';
import { operationalEvent } from '../events/event-payloads.js';
import { transactWithEvents } from '../events/emit.js';

const keyNotFound = () => notFound('API key');

/** What the key has spent in the period now holds (0 when its refilling cap's stored period is over). */
const spentNow = (k: KeyRow): number => {
  const remaining = remainingCredits(k, now());
  return remaining === null || k.spend_cap_credits === null ? k.spent_credits : k.spend_cap_credits - remaining;
};

function assertFuture(expiresAt: Date | null | undefined): void {
  if (expiresAt && expiresAt.getTime() <= now().getTime()) throw fieldError('expiresAt', 'must be in the future');
}

/**
 * Starts a lifecycle change inside `trx`: locks the row, then invalidates every instance's cached copy of it
 * (see src/keys/key-cache.ts for why this order makes the change visible on the very next request).
 */
async function lockForChange(deps: Deps, trx: Trx, accountId: string, keyId: string): Promise<KeyRow> {
  const key = await repo.lockKey(trx, accountId, keyId);
  if (!key) throw keyNotFound();
  await invalidateKeyHashes(deps, [key.secret_hash, key.previous_secret_hash]);
  return key;
}

export interface IssuedKey {
  row: KeyRow;
  secret: string;
}

type Restrictions = Pick<
  AccountKeyInput,
  'expiresAt' | 'allowedIps' | 'spendCapCredits' | 'spendCapInterval' | 'spendCapRefillDay' | 'rateLimits'
>;

/** The refill settings a key ends up with, judged together: a refill needs a cap, a refill day a monthly one. */
function refillOf(cap: number | null, interval: 'daily' | 'monthly' | null, day: number | null | undefined) {
  if (interval && cap === null) throw fieldError('spendCapInterval', 'a refill needs spendCapCredits');
  if (day != null && interval !== 'monthly')
    throw fieldError('spendCapRefillDay', "only a 'monthly' cap has a refill day");
  return { spend_cap_interval: interval, spend_cap_refill_day: interval === 'monthly' ? (day ?? 1) : null };
}

async function insertWithAudit(
  deps: Deps,
  principal: Principal,
  ip: string | null,
  keyType: 'account' | 'agent',
  agentId: string | null,
  input: { name: string; scopes?: string[] } & Restrictions,
): Promise<IssuedKey> {
  const scopes = resolveScopes(keyType, input.scopes);
  assertFuture(input.expiresAt);
  const refill = refillOf(input.spendCapCredits ?? null, input.spendCapInterval ?? null, input.spendCapRefillDay);
  const { secret, hash } = generateSecret(keyType);
  const row = await transaction(deps.db, async (trx) => {
    const key = await repo.insertKey(trx, principal.accountId, {
      id: newId('key'),
      name: input.name,
      key_type: keyType,
      key_prefix: prefixOf(keyType),
      agent_id: agentId,
      scopes,
      secret_hash: hash,
      expires_at: input.expiresAt ?? null,
      allowed_ips: input.allowedIps ?? [],
      spend_cap_credits: input.spendCapCredits ?? null,
      ...refill,
      rate_limits: input.rateLimits ?? [],
    });
    await recordAudit(trx, principal, {
      action: 'api_key.created',
      targetType: 'api_key',
      targetId: key.id,
      ip,
      details: {
        name: key.name,
        keyType,
        agentId,
        scopes,
        expiresAt: input.expiresAt ?? null,
        allowedIps: key.allowed_ips,
        spendCapCredits: key.spend_cap_credits,
        spendCapInterval: key.spend_cap_interval,
        spendCapRefillDay: key.spend_cap_refill_day,
        rateLimits: key.rate_limits,
      },
    });
    return key;
  });
  return { row, secret };
}

export function createAccountKey(deps: Deps, caller: Caller, input: AccountKeyInput): Promise<IssuedKey> {
  const { principal, ip } = caller;
  return insertWithAudit(deps, principal, ip, 'account', null, input);
}

/**
 * Mints a per-agent key. The route's access already refused per-agent keys, member sessions and account keys
 * without write:agents; what is left depends on data, the account's agentKeyMinting policy.
 */
export async function mintAgentKey(
  deps: Deps,
  caller: Caller,
  agentId: string,
  input: AgentKeyInput,
): Promise<IssuedKey> {
  const { principal, ip } = caller;
  if (principal.type === 'key') {
    const account = await findAccount(deps.db, principal.accountId);
    if (account?.agent_key_minting !== 'account_keys') {
      throw new AppError(
        'admin_session_required',
        "This account's agentKeyMinting policy lets only admin sessions mint per-agent keys",
      );
    }
  }
  if (!(await findAgent(deps.db, principal.accountId, agentId))) throw notFound('Agent');
  if (input.agentId !== undefined && input.agentId !== agentId) {
    throw fieldError('agentId', 'a per-agent key is bound to the agent in the path; omit agentId');
  }
  return insertWithAudit(deps, principal, ip, 'agent', agentId, input);
}

export const listKeys = (deps: Deps, accountId: string, page: PageQuery, filter: { agentId?: string }) =>
  repo.listKeys(deps.db, accountId, page, filter);

export async function getKey(deps: Deps, accountId: string, keyId: string): Promise<KeyRow> {
  const key = await repo.findKey(deps.db, accountId, keyId);
  if (!key) throw keyNotFound();
  return key;
}

export async function editKey(deps: Deps, caller: Caller, keyId: string, input: KeyPatch): Promise<KeyRow> {
  const { principal, ip } = caller;
  assertFuture(input.expiresAt);
  const patch: Partial<KeyRow> = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.allowedIps !== undefined) patch.allowed_ips = input.allowedIps;
  if (input.spendCapCredits !== undefined) patch.spend_cap_credits = input.spendCapCredits;
  if (input.rateLimits !== undefined) patch.rate_limits = input.rateLimits;
  if (input.expiresAt !== undefined) {
    patch.expires_at = input.expiresAt;
    patch.expiry_notified_at = null; // a new expiry deserves its own seven-day warning
  }
  return transaction(deps.db, async (trx) => {
    const before = await lockForChange(deps, trx, principal.accountId, keyId);
    if (before.status === 'expired' && input.expiresAt !== undefined) {
      throw new AppError('conflict', 'An expired key stays expired; create a new key instead of extending it');
    }
    const spent = spentNow(before);
    if (input.spendCapCredits !== undefined) patch.spent_credits = spent;
    if (input.spendCapCredits != null && input.spendCapCredits < spent) {
      throw fieldError('spendCapCredits', `must be at least the ${spent} credits this key has already spent`);
    }
    if (
      input.spendCapInterval !== undefined ||
      input.spendCapRefillDay !== undefined ||
      input.spendCapCredits === null
    ) {
      const interval = input.spendCapInterval === undefined ? before.spend_cap_interval : input.spendCapInterval;
      const cap = input.spendCapCredits === undefined ? before.spend_cap_credits : input.spendCapCredits;
      const day =
        input.spendCapRefillDay ??
        (interval === 'monthly' && input.spendCapInterval === undefined ? before.spend_cap_refill_day : null);
      const refill = cap === null ? refillOf(null, null, null) : refillOf(cap, interval, day);
      Object.assign(patch, refill);
      // A new period rule starts from the period now holds, with what this period has spent so far.
      patch.spent_credits = spent;
      patch.spend_period_start = refill.spend_cap_interval
        ? (trx.raw('spend_period_start(?, ?::smallint, now())', [
            refill.spend_cap_interval,
            refill.spend_cap_refill_day,
          ]) as unknown as Date)
        : null;
    }
    const key = await repo.updateKey(trx, principal.accountId, keyId, patch);
    if (!key) throw keyNotFound();
    await recordAudit(trx, principal, {
      action: 'api_key.edited',
      targetType: 'api_key',
      targetId: keyId,
      ip,
      details: { changes: { ...input } },
    });
    return key;
  });
}

export async function rotateKey(deps: Deps, caller: Caller, keyId: string): Promise<IssuedKey> {
  const { principal, ip } = caller;
  const graceUntil = new Date(now().getTime() + deps.config.keys.rotationGraceSeconds * 1000);
  return transaction(deps.db, async (trx) => {
    const existing = await lockForChange(deps, trx, principal.accountId, keyId);
    if (existing.status !== 'active') throw new AppError('conflict', `A ${existing.status} key cannot be rotated`);
    const { secret, hash } = generateSecret(existing.key_type);
    const key = await repo.rotateKeySecret(trx, principal.accountId, keyId, hash, graceUntil);
    if (!key) throw new AppError('conflict', 'The key is no longer active');
    await recordAudit(trx, principal, {
      action: 'api_key.rotated',
      targetType: 'api_key',
      targetId: keyId,
      ip,
      details: { rotationGraceUntil: graceUntil.toISOString() },
    });
    return { row: key, secret };
  });
}

/**
 * Deactivation is final and takes effect on the next request. Deactivating twice answers the same key and, the
 * row being locked, emits api_key.deactivated only the first time.
 */
export async function deactivateKey(deps: Deps, caller: Caller, keyId: string): Promise<KeyRow> {
  const { principal, ip } = caller;
  return transactWithEvents(deps, principal.accountId, async (trx, emit) => {
    const before = await lockForChange(deps, trx, principal.accountId, keyId);
    if (before.status === 'deactivated') return before;
    const key = await repo.updateKey(trx, principal.accountId, keyId, {
      status: 'deactivated',
      previous_secret_hash: null,
      rotation_grace_until: null,
    });
    await recordAudit(trx, principal, {
      action: 'api_key.deactivated',
      targetType: 'api_key',
      targetId: keyId,
      ip,
      details: { name: before.name, previousStatus: before.status },
    });
    await emit(operationalEvent('api_key.deactivated', { ...keyEventRef(before), previousStatus: before.status }));
    return key!;
  });
}

/** Removes the row; the audit log keeps its history. */
export async function deleteKey(deps: Deps, caller: Caller, keyId: string): Promise<void> {
  const { principal, ip } = caller;
  await transaction(deps.db, async (trx) => {
    await lockForChange(deps, trx, principal.accountId, keyId);
    const key = await repo.deleteKey(trx, principal.accountId, keyId);
    if (!key) throw keyNotFound();
    await recordAudit(trx, principal, {
      action: 'api_key.deleted',
      targetType: 'api_key',
      targetId: keyId,
      ip,
      details: { name: key.name, keyType: key.key_type, agentId: key.agent_id },
    });
  });
}
