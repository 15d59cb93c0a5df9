import type { Deps } from '../app/deps.js';
import { transaction, type Trx } from '../platform/transaction.js';
import { AppError, notFound } from '../platform/errors.js';
import { iso, now } from '../platform/clock.js';
import type { Caller, Principal } from '../auth/principal.js';
import { recordAudit } from '../audit/audit.repository.js';
import { findAccount } from '../accounts/accounts.repository.js';
import { operationalEvent } from '../events/event-payloads.js';
import { keyEventRef } from '../keys/key-events.js';
import { addKeySpend, findKey, type KeySpend } from '../keys/keys.repository.js';
import type { Emit } from '../events/emit.js';
import {
  creditAccount,
  debitAccount,
  insertLedgerEntry,
  sumSpendByReason,
  type Debited,
} from './billing.repository.js';
import { fellBelow, reachedZero, spendCapCrossings } from './thresholds.js';
import { enforceRateLimit } from './rate-limit.js';

export interface ChargeRefs {
  agentId?: string;
  messageId?: string;
  runId?: string;
}

/**
 * Charges a money-spending request, inside the caller's transaction (opened with transactWithEvents, whose
 * `emit` writes the spend-cap and credit events of the thresholds it crosses) and before its work is queued.
 * The key's spentCredits (cap checked in the UPDATE's WHERE) and the account balance (>= 0 checked in the
 * UPDATE's WHERE) move together; row locks serialise concurrent charges, so no interleaving can overspend.
 * On 402 or 429 it throws and the caller's transaction rolls back: nothing is charged and nothing queued.
 * Uncapped keys without named limits of their own (src/keys/named-limits.ts) are rate-limited by plan. Sessions (a person at the dashboard) charge the account only and
 * are not rate-limited (docs/adr/0016-rate-limits.md): the balance still bounds what a session can spend.
 */
export async function chargeCredits(
  deps: Deps,
  trx: Trx,
  emit: Emit,
  principal: Principal,
  amount: number,
  reason: string,
  refs: ChargeRefs = {},
): Promise<void> {
  if (!Number.isInteger(amount) || amount <= 0)
    throw new Error(`chargeCredits: amount must be a positive integer, got ${amount}`);
  const accountId = principal.accountId;
  const isKey = principal.type === 'key';

  // An OAuth grant has no spend cap of its own (no key row to charge): it is bounded like an uncapped key.
  let keySpend: KeySpend | undefined;
  if (isKey && !principal.oauth) {
    const charged = (keySpend = await addKeySpend(trx, accountId, principal.keyId, amount));
    if (!charged) {
      const key = await findKey(trx, accountId, principal.keyId);
      if (!key) throw new AppError('invalid_credential', 'The credential is not valid');
      throw new AppError(
        'spend_cap_exceeded',
        `This key's spend cap of ${key.spend_cap_credits} credits would be passed; nothing was done`,
        {
          spendCapCredits: key.spend_cap_credits,
          spentCredits: key.spent_credits,
          required: amount,
        },
      );
    }
  }

  const debited = await debitAccount(trx, accountId, amount);
  if (!debited) {
    const account = await findAccount(trx, accountId);
    throw new AppError('insufficient_credits', 'The account balance is too low for this request; nothing was done', {
      creditsBalance: account?.credits_balance ?? 0,
      required: amount,
    });
  }

  if (isKey && principal.spendCapCredits === null && !principal.namedLimits)
    await enforceRateLimit(deps, principal.keyId, debited.plan);

  await insertLedgerEntry(trx, accountId, {
    delta: -amount,
    reason,
    keyId: isKey ? principal.keyId : null,
    userId: isKey ? null : principal.userId,
    ...refs,
  });
  await emitCrossings(emit, amount, keySpend, debited);
}

/**
 * The operational events of the thresholds this charge crossed, in its transaction: if the request rolls back
 * (a later 402 or 429, a failure), its events vanish with its charge. See thresholds.ts for why each crossing is
 * reported exactly once under concurrency.
 */
async function emitCrossings(emit: Emit, amount: number, key: KeySpend | undefined, account: Debited): Promise<void> {
  if (key && key.spend_cap_credits !== null) {
    for (const percent of spendCapCrossings(key.spend_cap_credits, key.spent_credits - amount, key.spent_credits)) {
      await emit(
        operationalEvent('api_key.spend_cap_reached', {
          ...keyEventRef(key),
          percent,
          spendCapCredits: key.spend_cap_credits,
          spentCredits: key.spent_credits,
        }),
      );
    }
  }
  const after = account.credits_balance;
  const before = after + amount;
  if (fellBelow(account.low_credits_threshold, before, after)) {
    await emit(
      operationalEvent('billing.credits_low', {
        creditsBalance: after,
        lowCreditsThreshold: account.low_credits_threshold,
      }),
    );
  }
  if (reachedZero(before, after)) await emit(operationalEvent('billing.credits_exhausted', { creditsBalance: after }));
}

const startOfMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));

export async function getBilling(deps: Deps, accountId: string) {
  const account = await findAccount(deps.db, accountId);
  if (!account) throw notFound('Account');
  const since = startOfMonth(now());
  const byReason = await sumSpendByReason(deps.db, accountId, since);
  return {
    plan: account.plan,
    creditsBalance: account.credits_balance,
    usage: {
      periodStart: iso(since),
      creditsUsed: byReason.reduce((sum, r) => sum + r.credits, 0),
      byReason: byReason.map((r) => ({ reason: r.reason, credits: r.credits, count: r.count })),
    },
  };
}

export async function addCredits(deps: Deps, caller: Caller, amount: number) {
  const { principal, ip } = caller;
  await transaction(deps.db, async (trx) => {
    const account = await creditAccount(trx, principal.accountId, amount);
    if (!account) throw notFound('Account');
    await insertLedgerEntry(trx, principal.accountId, {
      delta: amount,
      reason: 'credits.added',
      userId: principal.type === 'session' ? principal.userId : null,
    });
    await recordAudit(trx, principal, {
      action: 'billing.credits_added',
      targetType: 'account',
      targetId: principal.accountId,
      ip,
      details: { amount, creditsBalance: account.credits_balance },
    });
  });
  return getBilling(deps, principal.accountId);
}
