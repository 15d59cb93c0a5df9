import { now } from '../platform/clock.js';
import type { Config } from '../platform/config.js';

export const DAY_MS = 24 * 3600 * 1000;

/**
 * The oldest moment whose events, deliveries and attempts are kept (WEBHOOK_RETENTION_DAYS). Reads are bounded
 * by it, so a row past retention answers as absent at once, while its day partition waits for the
 * maintain-partitions job to drop it.
 */
export const retainedSince = (config: Config, at: Date = now()): Date =>
  new Date(at.getTime() - config.webhooks.retentionDays * DAY_MS);
