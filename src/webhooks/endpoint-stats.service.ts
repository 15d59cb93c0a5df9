import { iso, now } from '../platform/clock.js';
import { createCoalescer, type Coalesced } from '../platform/coalescer.js';
import type { Db } from '../platform/db.js';
import type { Deps } from '../app/deps.js';
import { notFound } from '../platform/errors.js';
import type { Background } from '../platform/background.js';
import type { Logger } from '../platform/logger.js';
import { isBackendUnavailable } from '../platform/outage.js';
import {
  bucketStart,
  foldSamples,
  STATS_RETENTION_MS,
  STATS_WINDOWS,
  summarize,
  type AttemptSample,
  type StatsWindow,
} from './endpoint-stats.js';
import { addStats, findHealth, findStatBuckets, pruneStatBuckets } from './endpoint-stats.repository.js';
import { findWebhook } from './webhooks.repository.js';

export interface WebhookStatsRecorder {
  /** Adds one attempt to its subscription's figures. Never throws and is not awaited by the delivery. */
  record(sample: AttemptSample): void;
}

/**
 * How long a worker process gathers attempts before one upsert adds them. Per turn, the upsert of a few samples
 * onto the same bucket row was the worker's most expensive statement (docs/performance.md). A runtime that closes
 * waits for the window's upsert; a process killed loses at most this window of figures, never a delivery or an
 * attempt row.
 */
export const STATS_WINDOW_MS = 200;

/**
 * The attempts of one worker process's deliveries go to Postgres as one upsert per window. Figures are
 * observability, not state: a delivery never waits for them, and a batch Postgres refuses is logged and dropped.
 */
export function createWebhookStatsRecorder(db: Db, logger: Logger, background: Background): WebhookStatsRecorder {
  const add: Coalesced<AttemptSample, void> = createCoalescer(
    async (samples: AttemptSample[]) => {
      const { buckets, health } = foldSamples(samples);
      await addStats(db, buckets, health);
      return samples.map(() => undefined);
    },
    { failsAll: isBackendUnavailable, windowMs: STATS_WINDOW_MS, maxBatch: 10_000 },
  );
  return {
    record(sample) {
      background.add(
        add(sample).catch((err: Error) =>
          logger.warn({ webhookId: sample.webhookId, err: err.message }, 'webhook stats not recorded'),
        ),
        'webhook stats',
      );
    },
  };
}

/** Endpoint health of one subscription over a window (whole 5-minute buckets, so 1h covers 60 to 65 minutes). */
export async function getWebhookStats(deps: Deps, accountId: string, webhookId: string, window: StatsWindow) {
  const webhook = await findWebhook(deps.db, accountId, webhookId);
  if (!webhook) throw notFound('Webhook');
  const to = now();
  const from = new Date(bucketStart(to.getTime() - STATS_WINDOWS[window]));
  const [rows, health] = await Promise.all([
    findStatBuckets(deps.db, accountId, webhookId, from),
    findHealth(deps.db, accountId, webhookId),
  ]);
  return {
    webhookId,
    window,
    from: iso(from),
    to: iso(to),
    ...summarize(rows),
    lastSuccessAt: iso(health?.last_success_at),
    lastFailureAt: iso(health?.last_failure_at),
    buckets: rows.map((r) => ({ start: iso(r.bucket_start), attempts: r.attempts, succeeded: r.successes })),
    consecutiveFailures: {
      /** Failed attempts since the last successful one. */
      attempts: health?.consecutive_failed_attempts ?? 0,
      /** Exhausted deliveries in a row: the count that disables the subscription at `disableAfter`. */
      deliveries: webhook.consecutive_failures,
      disableAfter: deps.config.webhooks.disableAfter,
    },
  };
}

/** The prune-webhook-stats sweep: buckets older than the longest window (and a day), in batches. */
export async function pruneWebhookStats(deps: Pick<Deps, 'db'>): Promise<number> {
  const before = new Date(now().getTime() - STATS_RETENTION_MS);
  let total = 0;
  for (;;) {
    const n = await pruneStatBuckets(deps.db, before, 1000);
    total += n;
    if (n < 1000) return total;
  }
}
