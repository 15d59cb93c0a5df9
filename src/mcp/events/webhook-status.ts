import type { Deps } from '../../app/deps.js';
import { callbackFailureOf } from '../../delivery/mcp-occurrence.js';
import { iso } from '../../platform/clock.js';
import { lastAttempts, type McpWebhookRow } from './webhook-repository.js';

/**
 * The sketch's deliveryStatus on a refresh: whether deliveries were running before it (false: the subscription
 * had lapsed or been suspended; this refresh has made it active again), the last delivery accepted, and the
 * category of the last failure when none succeeded since.
 */
export async function deliveryStatusOf(deps: Deps, row: McpWebhookRow, wasLive: boolean) {
  const { lastSuccessAt, lastFailure } = await lastAttempts(deps.db, row.account_id, row.id);
  const failing = lastFailure !== null && (lastSuccessAt === null || lastFailure.at > lastSuccessAt);
  return {
    active: wasLive,
    lastDeliveryAt: iso(lastSuccessAt),
    lastError: failing ? callbackFailureOf(lastFailure) : null,
    ...(failing && row.status === 'disabled' ? { failedSince: iso(row.disabled_at) } : {}),
  };
}
