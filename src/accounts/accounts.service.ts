import type { z } from 'zod';
import type { Deps } from '../app/deps.js';
import { AppError, notFound } from '../platform/errors.js';
import { hashPassword } from '../platform/crypto.js';
import { newId } from '../platform/ids.js';
import type { PageQuery } from '../platform/pagination.js';
import { isUniqueViolation } from '../platform/pg-errors.js';
import { issueSession } from './sessions.service.js';
import type { Caller } from '../auth/principal.js';
import { recordAudit } from '../audit/audit.repository.js';
import * as repo from './accounts.repository.js';
import type { AccountRow, accountPatch, memberInput, signupInput } from './accounts.schema.js';
import { transaction } from '../platform/transaction.js';

const emailTaken = () => new AppError('conflict', 'An account with this email already exists');

export async function signup(deps: Deps, input: z.infer<typeof signupInput>) {
  if (!deps.config.signupEnabled) throw new AppError('signup_disabled', 'Sign-up is disabled on this service');
  const passwordHash = await hashPassword(input.password);
  try {
    return await transaction(deps.db, async (trx) => {
      const account = await repo.insertAccount(trx, {
        id: newId('acct'),
        name: input.accountName,
        credits_balance: deps.config.signupCredits,
      });
      const user = await repo.insertUser(trx, account.id, {
        id: newId('usr'),
        email: input.email,
        password_hash: passwordHash,
        role: 'owner',
      });
      const session = await issueSession(trx, deps, user);
      return { account, user, session };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_unique')) throw emailTaken();
    throw err;
  }
}

export async function getAccount(deps: Deps, accountId: string) {
  const account = await repo.findAccount(deps.db, accountId);
  if (!account) throw notFound('Account');
  return account;
}

export async function updateAccountPolicy(deps: Deps, caller: Caller, input: z.infer<typeof accountPatch>) {
  const { principal, ip } = caller;
  return transaction(deps.db, async (trx) => {
    const patch: Partial<AccountRow> = {};
    if (input.agentKeyMinting !== undefined) patch.agent_key_minting = input.agentKeyMinting;
    if (input.lowCreditsThreshold !== undefined) patch.low_credits_threshold = input.lowCreditsThreshold;
    const account = await repo.updateAccount(trx, principal.accountId, patch);
    if (!account) throw notFound('Account');
    await recordAudit(trx, principal, {
      action: 'account.updated',
      targetType: 'account',
      targetId: account.id,
      ip,
      details: { ...input },
    });
    return account;
  });
}

export async function addMember(deps: Deps, caller: Caller, input: z.infer<typeof memberInput>) {
  const { principal, ip } = caller;
  const passwordHash = await hashPassword(input.password);
  try {
    return await transaction(deps.db, async (trx) => {
      const user = await repo.insertUser(trx, principal.accountId, {
        id: newId('usr'),
        email: input.email,
        password_hash: passwordHash,
        role: input.role,
      });
      await recordAudit(trx, principal, {
        action: 'team.member_added',
        targetType: 'user',
        targetId: user.id,
        ip,
        details: { role: user.role },
      });
      return user;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_unique')) throw emailTaken();
    throw err;
  }
}

export const listMembers = (deps: Deps, accountId: string, page: PageQuery) => repo.listUsers(deps.db, accountId, page);
