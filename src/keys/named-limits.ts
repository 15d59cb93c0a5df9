import { z } from 'zod';
import type { Deps } from '../app/deps.js';
import { text } from '../platform/input.js';
import { outText } from '../platform/output.js';
import { rateLimitedError } from '../platform/errors.js';
import { now } from '../platform/clock.js';
import type { RedisClient } from '../platform/redis.js';

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
 * One round trip for all of a request's limits, and for the requests of one event-loop turn together (the same
 * batching as the key cache's epoch reads). For each request in turn: its windows' counters are read; if any is
 * full the request is refused naming the first full limit and none of its counters moves (a refused request
 * spends no other limit's budget); otherwise each goes up by one. Atomic in Redis, so it holds across instances.
 * ARGV: the number of requests, then for each its number of keys and, per key, its limit and its expiry (ms).
 * Answers, per request, 0 (admitted) or the 1-based index of the limit that refused it.
 */
const CHECK = `
local k, a, out = 1, 2, {}
for r = 1, tonumber(ARGV[1]) do
  local n = tonumber(ARGV[a]); a = a + 1
  local refused = 0
  for i = 0, n - 1 do
    if tonumber(redis.call('GET', KEYS[k + i]) or '0') >= tonumber(ARGV[a + 2 * i]) then refused = i + 1; break end
  end
  if refused == 0 then
    for i = 0, n - 1 do
      if redis.call('INCR', KEYS[k + i]) == 1 then redis.call('PEXPIRE', KEYS[k + i], ARGV[a + 2 * i + 1]) end
    end
  end
  out[r] = refused; k = k + n; a = a + 2 * n
end
return out
`;

/** One request's counters: their Redis keys, and per key its limit and expiry. */
export interface LimitCheck {
  keys: string[];
  args: string[];
}

type CheckCommand = (numKeys: number, ...rest: string[]) => Promise<number[]>;

/** The batched check (EVALSHA of CHECK), for createCoalescer: one script call for a turn's requests. */
export function limitChecker(redis: RedisClient): (items: LimitCheck[]) => Promise<number[]> {
  redis.defineCommand('switchboardCheckLimits', { lua: CHECK });
  const check = (redis as unknown as { switchboardCheckLimits: CheckCommand }).switchboardCheckLimits.bind(redis);
  return async (items) => {
    const keys = items.flatMap((c) => c.keys);
    const args = [String(items.length), ...items.flatMap((c) => [String(c.keys.length), ...c.args])];
    return (await check(keys.length, ...keys, ...args)).map(Number);
  };
}

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
  const refused = await deps.keyCache.checkLimits({ keys, args });
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
