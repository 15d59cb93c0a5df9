import { z } from 'zod';
import { iso, now } from '../platform/clock.js';
import { isValidIpRange } from '../auth/key-ip.js';
import type { KeyRow } from './keys.repository.js';
import { nextRefill, remainingCredits } from './spend-period.js';
import { namedLimitsInput, namedLimitsResponse } from './named-limits.js';
import { text, timestampInput } from '../platform/input.js';
import { idString, outText, timestamp } from '../platform/output.js';

const name = text().trim().min(1).max(200);
const scopes = z.array(text().min(1).max(100)).min(1).max(50);
const expiresAt = timestampInput().transform((s) => new Date(s));
const allowedIps = z
  .array(text().trim().max(64).refine(isValidIpRange, 'not an IPv4/IPv6 address or CIDR range'))
  .max(100);
const spendCapCredits = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable();
const spendCapInterval = z
  .enum(['daily', 'monthly'])
  .nullable()
  .describe('How often the spend cap refills (UTC); null: it never does, spentCredits counts for ever');
const spendCapRefillDay = z
  .number()
  .int()
  .min(1)
  .max(31)
  .describe('The day of the month a monthly cap refills (default 1; 29..31 mean the last day of shorter months)');

/** Restrictions shared by both key types; they can only narrow a key. */
const restrictions = {
  expiresAt: expiresAt.nullable().optional(),
  allowedIps: allowedIps.optional(),
  spendCapCredits: spendCapCredits.optional(),
  spendCapInterval: spendCapInterval.optional(),
  spendCapRefillDay: spendCapRefillDay.optional(),
  rateLimits: namedLimitsInput.optional(),
};

// keyType and agentId are forced by the server. They are accepted only when they repeat what the server would
// decide anyway; anything else is a 400, never a wider key.
export const accountKeyInput = z
  .object({
    name,
    scopes: scopes.optional(),
    ...restrictions,
    keyType: z
      .literal('account', { message: "this route creates account keys; keyType must be 'account' or omitted" })
      .optional(),
    agentId: z.null({ message: 'account keys are not bound to an agent' }).optional(),
  })
  .strict();

export const agentKeyInput = z
  .object({
    name,
    scopes: scopes.optional(),
    ...restrictions,
    keyType: z
      .literal('agent', { message: "this route creates per-agent keys; keyType must be 'agent' or omitted" })
      .optional(),
    agentId: text().optional(),
  })
  .strict();

export const keyPatch = z
  .object({
    name: name.optional(),
    ...restrictions,
  })
  .strict();

export const keyListQuery = z.object({
  agentId: text().max(100).optional(),
});

export type AccountKeyInput = z.infer<typeof accountKeyInput>;
export type AgentKeyInput = z.infer<typeof agentKeyInput>;
export type KeyPatch = z.infer<typeof keyPatch>;

/** Key metadata (docs/adr/0008-key-metadata.md): never the secret, never its hash. */
export const toKeyResponse = (k: KeyRow) => {
  const at = now();
  const remaining = remainingCredits(k, at);
  return {
    id: k.id,
    name: k.name,
    keyType: k.key_type,
    keyPrefix: k.key_prefix,
    agentId: k.agent_id,
    scopes: k.scopes,
    status: k.status,
    expiresAt: iso(k.expires_at),
    allowedIps: k.allowed_ips,
    spendCapCredits: k.spend_cap_credits,
    spentCredits:
      remaining === null || k.spend_cap_credits === null ? k.spent_credits : k.spend_cap_credits - remaining,
    spendCapInterval: k.spend_cap_interval,
    spendCapRefillDay: k.spend_cap_refill_day,
    remainingCredits: remaining,
    nextRefillAt: k.spend_cap_interval
      ? nextRefill(k.spend_cap_interval, k.spend_cap_refill_day, at).toISOString()
      : null,
    rateLimits: k.rate_limits.map((l) => ({ name: l.name, limit: l.limit, durationMs: l.durationMs })),
    lastUsedAt: iso(k.last_used_at),
    lastUsedIp: k.last_used_ip,
    createdAt: iso(k.created_at),
    rotationGraceUntil: k.previous_secret_hash ? iso(k.rotation_grace_until) : null,
  };
};

/** The create and rotate responses: metadata plus the secret, shown this once. */
export const toKeyWithSecret = (k: KeyRow, secret: string) => ({ ...toKeyResponse(k), key: secret });

export const keyResponse = z
  .object({
    id: idString('key'),
    name: outText(),
    keyType: z.enum(['account', 'agent']),
    keyPrefix: z.enum(['ca_acct_', 'ca_agt_']),
    agentId: idString('agt').nullable(),
    scopes: z.array(outText()),
    status: z.enum(['active', 'deactivated', 'expired']),
    expiresAt: timestamp().nullable(),
    allowedIps: z.array(outText()),
    spendCapCredits: z.number().int().nullable(),
    spentCredits: z.number().int().describe('Spent in the current period (ever, when the cap does not refill)'),
    spendCapInterval: z.enum(['daily', 'monthly']).nullable(),
    spendCapRefillDay: z.number().int().nullable().describe('Monthly caps only'),
    remainingCredits: z
      .number()
      .int()
      .nullable()
      .describe('What the key may still spend in this period: spendCapCredits - spentCredits (null when uncapped)'),
    nextRefillAt: timestamp().nullable().describe('When the cap next refills (null when it does not refill)'),
    rateLimits: namedLimitsResponse.describe(
      "The key's named rate limits, on every request it authenticates (its agent's apply as well)",
    ),
    lastUsedAt: timestamp().nullable().describe('Kept to the minute'),
    lastUsedIp: outText().nullable(),
    createdAt: timestamp(),
    rotationGraceUntil: timestamp().nullable().describe('Until when the secret before the last rotation still works'),
  })
  .meta({ id: 'ApiKey', description: 'Key metadata: never the secret, never its hash' });

export const keyWithSecretResponse = keyResponse
  .extend({
    key: outText()
      .nullable()
      .describe(
        'The secret (ca_acct_… or ca_agt_…), shown this once (null in the replay of an answer to a repeated Idempotency-Key: a secret is never stored)',
      ),
  })
  .meta({ id: 'ApiKeyWithSecret' });
