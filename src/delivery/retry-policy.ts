import type { Config } from '../platform/config.js';
import type { Answer } from './transport.js';

// What follows an attempt: the whole retry policy of webhook deliveries. A round (the first delivery, or a
// redeliver/recoverSince) may make one first try plus one retry per WEBHOOK_RETRY_DELAYS_MS value.

export type NextStep =
  | { kind: 'succeeded' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'exhausted' }
  /** 410 Gone: the receiver says the endpoint no longer exists; stop now and disable the subscription. */
  | { kind: 'gone' };

export const attemptsPerRound = (config: Config): number => config.webhooks.retryDelaysMs.length + 1;

/** The step after attempt `roundAttempt` (1-based within its round) got the answer `res`, at `nowMs`. */
export function nextStep(config: Config, roundAttempt: number, res: Answer, nowMs: number): NextStep {
  if (res.ok) return { kind: 'succeeded' };
  if (res.status === 410) return { kind: 'gone' };
  if (roundAttempt >= attemptsPerRound(config)) return { kind: 'exhausted' };
  const retryAfter =
    res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers?.['retry-after'], nowMs) : null;
  return { kind: 'retry', delayMs: retryDelayMs(config, roundAttempt, retryAfter) };
}

/**
 * The wait after failed attempt `roundAttempt`: the configured delay ±10% (so receivers recovering from an
 * outage are not hit by every retry at once), or a Retry-After bounded to twice that delay.
 */
export function retryDelayMs(config: Config, roundAttempt: number, retryAfterMs: number | null): number {
  const delays = config.webhooks.retryDelaysMs;
  const base = delays[Math.min(roundAttempt - 1, delays.length - 1)] ?? 1000;
  if (retryAfterMs !== null) return Math.max(0, Math.min(retryAfterMs, base * 2));
  return Math.round(base * (0.9 + Math.random() * 0.2));
}

function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
