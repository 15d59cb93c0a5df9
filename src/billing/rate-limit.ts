import type { Deps } from '../platform/deps.js';
import { AppError } from '../platform/errors.js';
import { now } from '../platform/clock.js';

const WINDOW_MS = 60_000;

/**
 * Fixed one-minute window per key in Redis (INCR + PEXPIRE in one MULTI), shared by every API instance.
 * Throws 429 rate_limited with Retry-After and RateLimit-* headers once the plan's per-minute budget is used.
 */
export async function enforceRateLimit(deps: Deps, subject: string, plan: string): Promise<void> {
  const limit = deps.config.rateLimits[plan] ?? deps.config.rateLimits.free!;
  const at = now().getTime();
  const windowStart = at - (at % WINDOW_MS);
  const key = `${deps.config.bullmqPrefix}:rate:${subject}:${windowStart}`;
  const result = await deps.redis.multi().incr(key).pexpire(key, WINDOW_MS * 2).exec();
  const count = Number(result?.[0]?.[1] ?? 0);
  if (count <= limit) return;
  const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - at) / 1000));
  throw new AppError(
    'rate_limited',
    `Rate limit of ${limit} money-spending requests per minute reached for this key; retry in ${resetSeconds}s or set a spend cap`,
    { limit, resetSeconds },
    {
      'Retry-After': String(resetSeconds),
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': String(resetSeconds),
    },
  );
}
