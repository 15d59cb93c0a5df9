import { z } from 'zod';
import type { Deps } from '../app/deps.js';
import { text } from '../platform/input.js';
import { outText } from '../platform/output.js';
import { rateLimitedError } from '../platform/errors.js';
import { now } from '../platform/clock.js';

/** One named limit: at most `limit` requests in each fixed window of `durationMs`. */
export interface NamedLimit {
  name: string;
  limit: number;
  durationMs: number;
}

const DAY_MS = 24 * 3600_000;

const limitInput = z
  .object({
    name: text()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . and - only'),
    limit: z.number().int().min(1).max(1_000_000_000),
    durationMs: z
      .number()
      .int()
      .min(1000)
      .max(30 * DAY_MS),
  })
  .strict();

/** Up to ten limits with distinct names; an empty list removes them. */
export const namedLimitsInput = z
  .array(limitInput)
  .max(10)
  .refine((ls) => new Set(ls.map((l) => l.name)).size === ls.length, 'limit names must be distinct')
  .describe('Named rate limits: each allows `limit` requests per fixed window of `durationMs`');

export const namedLimitsResponse = z.array(
  z.object({ name: outText(), limit: z.number().int(), durationMs: z.number().int() }).meta({ id: 'RateLimit' }),
);

/**
 * One round trip for all of a request's limits. Each window's counter is read first; if any is full the request
 * is refused naming the first full limit, and no counter moves (a refused request spends no other limit's
 * budget). Otherwise every counter goes up by one. Atomic in Redis, so it holds across API instances.
 * ARGV: for each key, its limit and its window's remaining milliseconds (its expiry).
 */
const CHECK = `
for i = 1, #KEYS do
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  if count >= tonumber(ARGV[2 * i - 1]) then return i end
end
for i = 1, #KEYS do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i]) end
end
return 0
`;

export interface LimitOwner {
  /** 'key' or 'agent': whose budget the limit counts. */
  kind: 'key' | 'agent';
  id: string;
  limits: NamedLimit[];
}

/** Throws 429 rate_limited naming the first of the owners' limits that is full, with that limit's headers. */
export async function enforceNamedLimits(deps: Deps, owners: LimitOwner[]): Promise<void> {
  const at = now().getTime();
  const keys: string[] = [];
  const args: string[] = [];
  const all: Array<{ owner: LimitOwner; limit: NamedLimit; resetMs: number }> = [];
  for (const owner of owners) {
    for (const limit of owner.limits) {
      const windowStart = at - (at % limit.durationMs);
      const resetMs = windowStart + limit.durationMs - at;
      keys.push(`${deps.config.bullmqPrefix}:limit:${owner.kind}:${owner.id}:${limit.name}:${windowStart}`);
      args.push(String(limit.limit), String(resetMs + 1000));
      all.push({ owner, limit, resetMs });
    }
  }
  if (!keys.length) return;
  const refused = Number(await deps.redis.eval(CHECK, keys.length, ...keys, ...args));
  if (!refused) return;
  const { owner, limit, resetMs } = all[refused - 1]!;
  const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
  throw rateLimitedError(
    `Rate limit '${limit.name}' of this ${owner.kind === 'key' ? 'key' : "key's agent"} (${limit.limit} requests per ${limit.durationMs} ms) reached; retry in ${resetSeconds}s`,
    limit.limit,
    resetSeconds,
    { name: limit.name, durationMs: limit.durationMs, appliesTo: owner.kind },
  );
}
