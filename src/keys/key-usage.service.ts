import { z } from 'zod';
import type { Deps } from '../app/deps.js';
import { fieldError, notFound } from '../platform/errors.js';
import { now } from '../platform/clock.js';
import { timestampInput } from '../platform/input.js';
import { idString, timestamp } from '../platform/output.js';
import { retainedSince } from '../maintenance/retention.js';
import { findKey } from './keys.repository.js';
import { KEY_OUTCOMES, type KeyOutcome } from './key-usage.js';

const HOUR_MS = 3600_000;

export const usageQuery = z.object({
  from: timestampInput()
    .optional()
    .describe('Start (inclusive, rounded down to the hour); default 24 hours before `to`'),
  to: timestampInput().optional().describe('End (exclusive); default now'),
});

const outcomeCounts = z.object(
  Object.fromEntries(KEY_OUTCOMES.map((o) => [o, z.number().int()])) as Record<KeyOutcome, z.ZodNumber>,
);

export const usageResponse = z
  .object({
    keyId: idString('key'),
    from: timestamp(),
    to: timestamp(),
    totals: outcomeCounts,
    hours: z.array(z.object({ hour: timestamp(), outcomes: outcomeCounts })).describe('Hours with requests, in order'),
  })
  .meta({
    id: 'ApiKeyUsage',
    description:
      "The key's requests per hour by outcome: valid, or the refusal it met. Counts reach Postgres about a second after the requests.",
  });

const zeros = () => Object.fromEntries(KEY_OUTCOMES.map((o) => [o, 0])) as Record<KeyOutcome, number>;

/** A key's usage; `agentId` (the per-agent route) also requires the key to be that agent's. */
export async function getKeyUsage(
  deps: Deps,
  accountId: string,
  keyId: string,
  query: z.infer<typeof usageQuery>,
  agentId?: string,
) {
  const key = await findKey(deps.db, accountId, keyId);
  if (!key || (agentId !== undefined && key.agent_id !== agentId)) throw notFound('API key');
  const to = query.to ? new Date(query.to) : now();
  const fromAt = query.from ? new Date(query.from) : new Date(to.getTime() - 24 * HOUR_MS);
  if (fromAt.getTime() >= to.getTime()) throw fieldError('from', 'must be before to');
  // Rows past retention may wait for the sweep; they are not shown meanwhile.
  const floor = retainedSince(deps.config).getTime();
  const from = new Date(Math.max(fromAt.getTime() - (fromAt.getTime() % HOUR_MS), floor - (floor % HOUR_MS)));
  const rows = await deps
    .db('api_key_usage')
    .where({ account_id: accountId, key_id: keyId })
    .andWhere('hour', '>=', from)
    .andWhere('hour', '<', to)
    .orderBy('hour')
    .select<Array<{ hour: Date; outcome: string; n: string | number }>>('hour', 'outcome', 'n');
  const totals = zeros();
  const hours = new Map<number, Record<KeyOutcome, number>>();
  for (const r of rows) {
    if (!(KEY_OUTCOMES as readonly string[]).includes(r.outcome)) continue;
    const outcome = r.outcome as KeyOutcome;
    const n = Number(r.n);
    const at = r.hour.getTime();
    const hour = hours.get(at) ?? zeros();
    hour[outcome] += n;
    totals[outcome] += n;
    hours.set(at, hour);
  }
  return {
    keyId,
    from: from.toISOString(),
    to: to.toISOString(),
    totals,
    hours: [...hours].map(([at, outcomes]) => ({ hour: new Date(at).toISOString(), outcomes })),
  };
}
