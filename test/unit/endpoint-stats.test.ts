import { describe, expect, it } from 'vitest';
import {
  BUCKET_MS,
  bucketUpperMs,
  durationBucket,
  foldSamples,
  percentileOf,
  summarize,
  type AttemptSample,
} from '../../src/webhooks/endpoint-stats.js';

const sample = (over: Partial<AttemptSample>): AttemptSample => ({
  accountId: 'acct_1',
  webhookId: 'wh_a',
  at: 1_000_000,
  ok: true,
  status: 200,
  error: null,
  durationMs: 10,
  ...over,
});

describe('endpoint stats', () => {
  it('puts every duration in a bucket whose upper bound is at most 9% above it', () => {
    for (const ms of [0, 1, 2, 3, 7, 10, 99, 100, 101, 250, 999, 10_000, 120_000]) {
      const upper = bucketUpperMs(durationBucket(ms));
      expect(upper).toBeGreaterThanOrEqual(ms);
      expect(upper).toBeLessThanOrEqual(Math.max(1, Math.ceil(ms * 1.091)));
    }
  });

  it('reads nearest-rank percentiles from a histogram', () => {
    const h: Record<string, number> = {};
    for (let ms = 1; ms <= 100; ms++) h[durationBucket(ms)] = (h[durationBucket(ms)] ?? 0) + 1;
    expect(percentileOf(h, 0.5)).toBeGreaterThanOrEqual(50);
    expect(percentileOf(h, 0.5)).toBeLessThanOrEqual(55);
    expect(percentileOf(h, 0.95)).toBeGreaterThanOrEqual(95);
    expect(percentileOf(h, 0.95)).toBeLessThanOrEqual(104);
    expect(percentileOf({}, 0.5)).toBeNull();
  });

  it('folds a batch into one delta per subscription and bucket, sorted, and counts failures since the last success', () => {
    const { buckets, health } = foldSamples([
      sample({ webhookId: 'wh_b', at: 5, ok: false, status: 500, error: 'http_status' }),
      sample({ at: 1, ok: false, status: null, error: 'timeout', durationMs: 400 }),
      sample({ at: 2 }),
      sample({ at: 3, ok: false, status: 503, error: 'http_status' }),
      sample({ at: BUCKET_MS + 1 }),
      sample({ at: BUCKET_MS + 2, ok: false, status: 404, error: 'http_status' }),
    ]);
    expect(buckets.map((b) => [b.webhookId, b.bucketStart, b.attempts, b.successes])).toEqual([
      ['wh_a', 0, 3, 1],
      ['wh_a', BUCKET_MS, 2, 1],
      ['wh_b', 0, 1, 0],
    ]);
    expect(buckets[0]).toMatchObject({
      byError: { timeout: 1, http_status: 1 },
      byStatus: { none: 1, '2xx': 1, '5xx': 1 },
    });
    expect(health).toEqual([
      {
        webhookId: 'wh_a',
        accountId: 'acct_1',
        failuresSince: 1,
        lastSuccessAt: BUCKET_MS + 1,
        lastFailureAt: BUCKET_MS + 2,
      },
      { webhookId: 'wh_b', accountId: 'acct_1', failuresSince: 1, lastSuccessAt: null, lastFailureAt: 5 },
    ]);
    const s = summarize(
      buckets.map((b) => ({
        attempts: b.attempts,
        successes: b.successes,
        by_error: b.byError,
        by_status: b.byStatus,
        durations: b.durations,
      })),
    );
    expect(s).toMatchObject({
      attempts: 6,
      succeeded: 2,
      failed: 4,
      successRate: 0.3333,
      byStatusClass: { '2xx': 2, '4xx': 1, '5xx': 2, none: 1, '3xx': 0 },
    });
  });
});
