import type { Deps } from '../app/deps.js';
import { rateLimitedError } from '../platform/errors.js';
import { now } from '../platform/clock.js';

/**
 * Fixed window per key in Redis (INCR + PEXPIRE in one MULTI), shared by every API instance; the window is
 * RATE_LIMIT_windowMs (a minute). Throws 429 rate_limited with Retry-After and RateLimit-* headers once the
 * plan's budget for the window is used.
 */
export async function enforceRateLimit(deps: Deps, subject: string, plan: string): Promise<void> {
  const limit = deps.config.rateLimits[plan] ?? deps.config.rateLimits.free!;
  const windowMs = deps.config.rateLimitWindowMs;
  const at = now().getTime();
  const windowStart = at - (at % windowMs);
  const key = `${deps.config.bullmqPrefix}:rate:${subject}:${windowStart}`;
  const result = await deps.redis
    .multi()
    .incr(key)
    .pexpire(key, windowMs * 2)
    .exec();
  const count = Number(result?.[0]?.[1] ?? 0);
  if (count <= limit) return;
  const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000));
  throw rateLimitedError(
    `Rate limit of ${limit} money-spending requests per ${windowMs === 60_000 ? 'minute' : `${windowMs / 1000} s`} reached for this key; retry in ${resetSeconds}s or set a spend cap`,
    limit,
    resetSeconds,
  );
}
