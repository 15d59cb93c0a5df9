// Endpoint health as counters, not as a scan of attempts: pure functions that fold attempts into 5-minute
// buckets and buckets into a window's figures. Durations go into a log-scale histogram with 8 buckets per
// doubling, so a percentile read from it is at most 9% above the true value, in any window, in O(buckets).

export const BUCKET_MS = 5 * 60_000;
export const STATS_WINDOWS = { '1h': 3600_000, '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000 } as const;
export type StatsWindow = keyof typeof STATS_WINDOWS;
/** Buckets are kept a day longer than the longest window. */
export const STATS_RETENTION_MS = STATS_WINDOWS['7d'] + 24 * 3600_000;

const STEPS_PER_DOUBLING = 8;

/** The histogram bucket of a duration: the smallest i with duration <= 2^(i/8) ms. */
export const durationBucket = (ms: number): number => (ms <= 1 ? 0 : Math.ceil(STEPS_PER_DOUBLING * Math.log2(ms)));
/** The upper bound of a histogram bucket, in ms. */
export const bucketUpperMs = (i: number): number => Math.round(2 ** (i / STEPS_PER_DOUBLING));

export const bucketStart = (atMs: number): number => atMs - (atMs % BUCKET_MS);

export const statusClass = (status: number | null): string =>
  status === null ? 'none' : `${Math.floor(status / 100)}xx`;

/** One attempt as the stats see it. */
export interface AttemptSample {
  accountId: string;
  webhookId: string;
  /** When the answer (or the failure) came, ms since the epoch. */
  at: number;
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

type Counts = Record<string, number>;
const bump = (c: Counts, k: string, n = 1) => void (c[k] = (c[k] ?? 0) + n);

export interface BucketDelta {
  webhookId: string;
  accountId: string;
  bucketStart: number;
  attempts: number;
  successes: number;
  byError: Counts;
  byStatus: Counts;
  durations: Counts;
}

export interface HealthDelta {
  webhookId: string;
  accountId: string;
  /** Failures after the batch's last success, or all of them when it had none. */
  failuresSince: number;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
}

/**
 * A batch of attempts as one delta per (subscription, bucket) and one per subscription, sorted by key so that
 * concurrent upserts take their row locks in the same order.
 */
export function foldSamples(samples: AttemptSample[]): { buckets: BucketDelta[]; health: HealthDelta[] } {
  const buckets = new Map<string, BucketDelta>();
  const health = new Map<string, HealthDelta>();
  for (const s of [...samples].sort((a, b) => a.at - b.at)) {
    const start = bucketStart(s.at);
    const key = `${s.webhookId}\u0000${start}`;
    let b = buckets.get(key);
    if (!b)
      buckets.set(
        key,
        (b = {
          webhookId: s.webhookId,
          accountId: s.accountId,
          bucketStart: start,
          attempts: 0,
          successes: 0,
          byError: {},
          byStatus: {},
          durations: {},
        }),
      );
    b.attempts += 1;
    if (s.ok) b.successes += 1;
    if (s.error) bump(b.byError, s.error);
    bump(b.byStatus, statusClass(s.status));
    bump(b.durations, String(durationBucket(s.durationMs)));

    let h = health.get(s.webhookId);
    if (!h)
      health.set(
        s.webhookId,
        (h = {
          webhookId: s.webhookId,
          accountId: s.accountId,
          failuresSince: 0,
          lastSuccessAt: null,
          lastFailureAt: null,
        }),
      );
    if (s.ok) {
      h.lastSuccessAt = s.at;
      h.failuresSince = 0;
    } else {
      h.lastFailureAt = s.at;
      h.failuresSince += 1;
    }
  }
  const byKey = <T extends { webhookId: string }>(a: T, b: T) =>
    a.webhookId < b.webhookId ? -1 : a.webhookId > b.webhookId ? 1 : 0;
  return {
    buckets: [...buckets.values()].sort((a, b) => byKey(a, b) || a.bucketStart - b.bucketStart),
    health: [...health.values()].sort(byKey),
  };
}

export interface BucketRow {
  attempts: number;
  successes: number;
  by_error: Counts;
  by_status: Counts;
  durations: Counts;
}

/** The nearest-rank percentile `p` (0..1) of a histogram, as its bucket's upper bound; null when empty. */
export function percentileOf(durations: Counts, p: number): number | null {
  const entries = Object.entries(durations)
    .map(([i, n]) => [Number(i), n] as const)
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const [i, n] of entries) {
    seen += n;
    if (seen >= rank) return bucketUpperMs(i);
  }
  return bucketUpperMs(entries[entries.length - 1]![0]);
}

/** A window's figures from its buckets. */
export function summarize(rows: BucketRow[]) {
  const byError: Counts = {};
  const byStatusClass: Counts = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, none: 0 };
  const durations: Counts = {};
  let attempts = 0;
  let succeeded = 0;
  for (const r of rows) {
    attempts += r.attempts;
    succeeded += r.successes;
    for (const [k, n] of Object.entries(r.by_error)) bump(byError, k, n);
    for (const [k, n] of Object.entries(r.by_status)) bump(byStatusClass, k, n);
    for (const [k, n] of Object.entries(r.durations)) bump(durations, k, n);
  }
  return {
    attempts,
    succeeded,
    failed: attempts - succeeded,
    successRate: attempts === 0 ? null : Math.round((succeeded / attempts) * 10_000) / 10_000,
    durationMs: { p50: percentileOf(durations, 0.5), p95: percentileOf(durations, 0.95) },
    byError,
    byStatusClass,
  };
}
