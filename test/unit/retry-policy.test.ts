import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.js';
import type { SafeResponse } from '../../src/platform/http-client.js';
import { attemptsPerRound, nextStep, retryDelayMs } from '../../src/delivery/retry-policy.js';

const config = loadConfig({ NODE_ENV: 'test', APP_SECRET: 'x'.repeat(40), WEBHOOK_RETRY_DELAYS_MS: '1000,2000' });
const at = Date.parse('2026-11-23T12:00:00Z');
const failed = (status?: number, headers: Record<string, string> = {}): SafeResponse =>
  status === undefined
    ? { ok: false, error: 'connection_refused', durationMs: 1, message: 'refused' }
    : {
        ok: false,
        error: 'http_status',
        status,
        headers,
        body: '',
        durationMs: 1,
        message: `receiver answered ${status}`,
      };

describe('the webhook retry policy', () => {
  it('by default retries for about 28 hours: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, each ±10 %', () => {
    const byDefault = loadConfig({ NODE_ENV: 'test', APP_SECRET: 'x'.repeat(40) });
    expect(attemptsPerRound(byDefault)).toBe(8);
    const delays = Array.from({ length: 7 }, (_x, i) => retryDelayMs(byDefault, i + 1, null));
    const nominal = [5, 300, 1800, 7200, 18_000, 36_000, 36_000].map((s) => s * 1000);
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(0.9 * nominal[i]!);
      expect(d).toBeLessThanOrEqual(1.1 * nominal[i]!);
    });
    const total = nominal.reduce((a, b) => a + b, 0);
    expect(total / 3600_000).toBeCloseTo(27.6, 1);
    expect(nextStep(byDefault, 7, failed(500), at).kind).toBe('retry');
    expect(nextStep(byDefault, 8, failed(500), at)).toEqual({ kind: 'exhausted' });
  });

  it('gives a round one first try plus one retry per configured delay', () => {
    expect(attemptsPerRound(config)).toBe(3);
    expect(nextStep(config, 1, failed(500), at).kind).toBe('retry');
    expect(nextStep(config, 2, failed(), at).kind).toBe('retry');
    expect(nextStep(config, 3, failed(500), at)).toEqual({ kind: 'exhausted' });
  });

  it('succeeds on any 2xx, and stops at once on 410 Gone whatever attempt it is', () => {
    expect(nextStep(config, 3, { ok: true, status: 204, headers: {}, body: '', durationMs: 1 }, at)).toEqual({
      kind: 'succeeded',
    });
    expect(nextStep(config, 1, failed(410), at)).toEqual({ kind: 'gone' });
  });

  it('waits the configured delay with ±10% jitter', () => {
    for (let i = 0; i < 200; i++) {
      const d = retryDelayMs(config, 2, null);
      expect(d).toBeGreaterThanOrEqual(1800);
      expect(d).toBeLessThanOrEqual(2200);
    }
  });

  it('honours Retry-After (seconds or a date) on 429 and 503 only, up to double the delay', () => {
    expect(nextStep(config, 1, failed(429, { 'retry-after': '1' }), at)).toEqual({ kind: 'retry', delayMs: 1000 });
    expect(nextStep(config, 1, failed(503, { 'retry-after': '3600' }), at)).toEqual({ kind: 'retry', delayMs: 2000 });
    const date = new Date(at + 1500).toUTCString();
    expect(nextStep(config, 1, failed(429, { 'retry-after': date }), at)).toEqual({ kind: 'retry', delayMs: 1000 });
    const on500 = nextStep(config, 1, failed(500, { 'retry-after': '0' }), at);
    expect(on500.kind === 'retry' && on500.delayMs).toBeGreaterThanOrEqual(900);
  });
});
