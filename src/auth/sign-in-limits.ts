import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Deps } from '../app/deps.js';
import { sha256Hex } from '../platform/crypto.js';
import { rateLimitedError } from '../platform/errors.js';

// Sign-in attempts (POST /v1/auth/login, POST /v1/auth/signup and the OAuth sign-in form), limited in Redis so
// that every API process counts together. Two budgets, both taken before the password is hashed:
// - per client IP, every attempt: online guessing across many emails, and scrypt as a CPU-exhaustion lever;
// - per email, every attempt, handed back when it succeeds: so failures count (guessing one person's password)
//   while a person who signs in often is never held back, and concurrent guesses cannot overshoot the budget.
// A Redis outage lets attempts through (logged): sessions live in Postgres and sign-in must not depend on Redis.

export interface SignInAttempt {
  ip: string;
  email: string;
}

/** The two budgets of one runtime, under its prefix in Redis (built by the composition root). */
export interface SignInLimits {
  ip: RateLimiterRedis;
  email: RateLimiterRedis;
}

export function createSignInLimits(redis: Deps['redis'], config: Deps['config']): SignInLimits {
  const { perIp, perEmail, windowMs } = config.signIn;
  const make = (name: string, points: number) =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${config.bullmqPrefix}:sign-in:${name}`,
      points,
      duration: Math.ceil(windowMs / 1000),
    });
  return { ip: make('ip', perIp), email: make('email', perEmail) };
}

/** Runs `attempt` within both budgets; throws 429 rate_limited (with Retry-After) once either is spent. */
export async function limitSignIn<T>(
  deps: Pick<Deps, 'signInLimits' | 'config' | 'logger'>,
  who: SignInAttempt,
  attempt: () => Promise<T>,
): Promise<T> {
  const { ip, email } = deps.signInLimits;
  const emailKey = sha256Hex(who.email.trim().toLowerCase());
  const { perIp, perEmail } = deps.config.signIn;
  const counted =
    (await take(deps, ip, who.ip, perIp, 'this address')) &&
    (await take(deps, email, emailKey, perEmail, 'this email'));
  const result = await attempt();
  if (counted) await email.reward(emailKey, 1).catch((err: unknown) => warn(deps, err));
  return result;
}

/** Takes one point; false when Redis could not be asked (the attempt goes ahead uncounted). */
async function take(deps: Pick<Deps, 'logger'>, limiter: RateLimiterRedis, key: string, limit: number, what: string) {
  try {
    await limiter.consume(key, 1);
    return true;
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) return warn(deps, err);
    const resetSeconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw rateLimitedError(`Too many sign-in attempts from ${what}; retry in ${resetSeconds}s`, limit, resetSeconds);
  }
}

function warn(deps: Pick<Deps, 'logger'>, err: unknown): false {
  deps.logger.warn({ err: (err as Error).message }, 'sign-in limits unavailable; attempt not counted');
  return false;
}
