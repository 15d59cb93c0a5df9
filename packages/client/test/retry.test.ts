import { describe, expect, it } from 'vitest';
import { isRetriable, retryAfterSeconds, retryDelayMs } from '../src/retry.js';

describe('the retry policy', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-12-01T00:00:00Z');
    expect(retryAfterSeconds('3', now)).toBe(3);
    expect(retryAfterSeconds('Tue, 01 Dec 2026 00:00:10 GMT', now)).toBe(10);
    expect(retryAfterSeconds('Tue, 01 Dec 2026 00:00:00 GMT', now + 5000)).toBe(0);
    expect(retryAfterSeconds(null, now)).toBeNull();
    expect(retryAfterSeconds('soon', now)).toBeNull();
  });

  it('waits the Retry-After lengthened by at most a fifth, or backs off from 0.5 s, within the bound', () => {
    expect(retryDelayMs(1, 2, 0, 30_000)).toBe(2000);
    expect(retryDelayMs(1, 2, 0.999, 30_000)).toBe(2400);
    expect(retryDelayMs(1, null, 0, 30_000)).toBe(500);
    expect(retryDelayMs(2, null, 0, 30_000)).toBe(1000);
    expect(retryDelayMs(1, 31, 0, 30_000)).toBeNull();
    expect(retryDelayMs(1, 30, 0.9, 30_000)).toBe(30_000);
  });

  it('retries 429 and 503 only, and only a call that cannot do its work twice', () => {
    expect(isRetriable('GET', 503, false)).toBe(true);
    expect(isRetriable('DELETE', 429, false)).toBe(true);
    expect(isRetriable('POST', 503, true)).toBe(true);
    expect(isRetriable('POST', 503, false)).toBe(false);
    expect(isRetriable('PATCH', 429, false)).toBe(false);
    expect(isRetriable('GET', 500, false)).toBe(false);
    expect(isRetriable('GET', 502, false)).toBe(false);
  });
});
