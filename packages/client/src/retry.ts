// When a call is sent again: an answer of 429 (rate_limited) or 503 (unavailable), after the Retry-After it gives
// (or a short exponential backoff when it gives none), a few times at most, and only when sending it twice cannot
// do the work twice: a GET, PUT or DELETE, or a call that carries an Idempotency-Key (the API then replays the
// first answer instead of doing the work again).

export interface RetryOptions {
  /** Retries after the first try (default 2; 0 turns retrying off). */
  maxRetries?: number;
  /** The longest wait before a retry (default 30 000 ms): an answer asking for longer is thrown, not waited out. */
  maxDelayMs?: number;
}

export const RETRY_DEFAULTS: Required<RetryOptions> = { maxRetries: 2, maxDelayMs: 30_000 };

const RETRIED_STATUSES = new Set([429, 503]);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
const BACKOFF_MS = 500;
/** Each wait is lengthened by up to this fraction, at random, so clients told the same Retry-After spread out. */
const JITTER = 0.2;

/** Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function retryAfterSeconds(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

export function isRetriable(method: string, status: number, keyed: boolean): boolean {
  return RETRIED_STATUSES.has(status) && (SAFE_METHODS.has(method) || keyed);
}

/**
 * How long to wait before retry number `retry` (1-based): the Retry-After when given, else 0.5 s doubling, in
 * both cases lengthened by up to a fifth at random (`random` in [0, 1)); null when that is longer than the bound.
 */
export function retryDelayMs(
  retry: number,
  retryAfter: number | null,
  random: number,
  maxDelayMs: number,
): number | null {
  const base = retryAfter !== null ? retryAfter * 1000 : BACKOFF_MS * 2 ** (retry - 1);
  if (base > maxDelayMs) return null;
  return Math.min(maxDelayMs, Math.round(base * (1 + JITTER * random)));
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
