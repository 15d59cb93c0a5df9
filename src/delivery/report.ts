import type { Deps } from '../app/deps.js';
import { statusClassOf } from '../platform/metrics.js';
import type { AttemptRecord } from './sql/record.js';
import type { NextStep } from './retry-policy.js';

/**
 * The log line and metrics of one delivery attempt: info when the receiver took it, warn when not, so
 * LOG_LEVEL=warn keeps only failures and LOG_LEVEL=error none. Called once per attempt, after its record; the
 * line carries ids, never the URL's query, the body or a secret.
 */
export function reportAttempt(
  deps: Deps,
  record: AttemptRecord,
  outcome: NextStep['kind'],
  eventCreatedAt: Date,
  at: number,
): void {
  const { metrics, logger } = deps;
  const statusClass = statusClassOf(record.responseStatus);
  metrics.deliveries.inc({ outcome, status_class: statusClass });
  metrics.attemptDuration.observe({ status_class: statusClass }, record.durationMs / 1000);
  const ok = outcome === 'succeeded';
  if (ok) metrics.commitToArrival.observe((at - eventCreatedAt.getTime()) / 1000);
  const level = ok ? 'info' : 'warn';
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      event: record.event,
      subscriptionId: record.webhookId,
      deliveryId: record.deliveryId,
      attempt: record.attemptNumber,
      status: record.responseStatus,
      error: record.error ?? undefined,
      durationMs: record.durationMs,
      outcome,
    },
    ok ? 'webhook delivered' : 'webhook delivery attempt failed',
  );
}
