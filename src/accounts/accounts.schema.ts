import { z } from 'zod';
import { iso } from '../platform/clock.js';
import type { Role } from '../auth/principal.js';
import { text } from '../platform/input.js';
import { idString, outText, timestamp } from '../platform/output.js';

export const email = text().trim().toLowerCase().email().max(254);
export const password = text().min(10, 'must be at least 10 characters').max(1024);

export const signupInput = z
  .object({
    accountName: text().trim().min(1).max(200),
    email,
    password,
  })
  .strict();

export const loginInput = z.object({ email, password: text().min(1).max(1024) }).strict();

export const accountPatch = z
  .object({
    agentKeyMinting: z.enum(['admins', 'account_keys']).optional(),
    // billing.credits_low fires when a charge takes the balance below this; 0 turns it off.
    lowCreditsThreshold: z.number().int().min(0).max(1_000_000_000).optional(),
  })
  .strict()
  .refine(
    (p) => p.agentKeyMinting !== undefined || p.lowCreditsThreshold !== undefined,
    'send agentKeyMinting and/or lowCreditsThreshold',
  );

export const memberInput = z
  .object({
    email,
    password,
    role: z.enum(['admin', 'member']),
  })
  .strict();

export interface AccountRow {
  id: string;
  name: string;
  plan: 'free' | 'pro';
  credits_balance: number;
  agent_key_minting: 'admins' | 'account_keys';
  low_credits_threshold: number;
  created_at: Date;
  updated_at: Date;
}

export interface UserRow {
  id: string;
  account_id: string;
  email: string;
  password_hash: string;
  role: Role;
  created_at: Date;
}

export const toAccountResponse = (a: AccountRow) => ({
  id: a.id,
  name: a.name,
  plan: a.plan,
  creditsBalance: a.credits_balance,
  agentKeyMinting: a.agent_key_minting,
  lowCreditsThreshold: a.low_credits_threshold,
  createdAt: iso(a.created_at),
});

export const toUserResponse = (u: UserRow) => ({
  id: u.id,
  accountId: u.account_id,
  email: u.email,
  role: u.role,
  createdAt: iso(u.created_at),
});

export const accountResponse = z
  .object({
    id: idString('acct'),
    name: outText(),
    plan: z.enum(['free', 'pro']),
    creditsBalance: z.number().int(),
    agentKeyMinting: z.enum(['admins', 'account_keys']),
    lowCreditsThreshold: z.number().int(),
    createdAt: timestamp(),
  })
  .meta({ id: 'Account' });

export const userResponse = z
  .object({
    id: idString('usr'),
    accountId: idString('acct'),
    email: outText(),
    role: z.enum(['owner', 'admin', 'member']),
    createdAt: timestamp(),
  })
  .meta({ id: 'User' });

export const sessionResponse = z
  .object({ token: outText().describe('ca_sess_…, sent as Authorization: Bearer; shown once'), expiresAt: timestamp() })
  .meta({ id: 'Session' });
