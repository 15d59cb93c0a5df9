import { operationalEvent } from '../events/event-payloads.js';
import type { Db } from '../platform/db.js';
import { insertEventWithDeliveries } from './sql/fan-out.js';
import { recordExhaustions, type AttemptRecord } from './sql/record.js';
import type { FannedOutEvent } from '../events/emit.js';
import { transaction } from '../platform/transaction.js';

/** A failed last attempt of a round, with the event it delivered (for the webhook.delivery_exhausted payload). */
export interface Exhaustion extends AttemptRecord {
  eventId: string;
}

export interface ExhaustionOutcome {
  /** The subscription's consecutive count after this delivery; null when the delivery had moved on. */
  consecutiveFailures: number | null;
  /** The webhook.delivery_exhausted event written with the transition, to dispatch after commit. */
  events: FannedOutEvent[];
}

/**
 * Deliveries of the platform's own webhook events (webhook.disabled, webhook.delivery_exhausted, webhook.test)
 * report nothing when they exhaust: two failing receivers would otherwise keep telling each other about it.
 */
const reportsExhaustion = (event: string) => !event.startsWith('webhook.');

/**
 * pending → exhausted for a batch of deliveries, and in the same transaction one webhook.delivery_exhausted per
 * delivery that moved, to the account's other subscriptions that ask for it (never the one that is failing). A
 * delivery that had moved on writes nothing, so each exhaustion is reported once.
 */
export async function exhaustWithEvents(db: Db, items: Exhaustion[]): Promise<ExhaustionOutcome[]> {
  return transaction(db, async (trx) => {
    const counts = await recordExhaustions(trx, items);
    const outcomes: ExhaustionOutcome[] = [];
    // Written in the order of their subscriptions: an ordered subscription's key (payload.webhookId) is locked
    // until commit, and two batches that lock keys in one order cannot deadlock.
    const order = [...items.keys()].sort((x, y) => items[x]!.webhookId.localeCompare(items[y]!.webhookId));
    for (const i of order) {
      const item = items[i]!;
      const count = counts[i] ?? null;
      if (count === null || !reportsExhaustion(item.event)) {
        outcomes[i] = { consecutiveFailures: count, events: [] };
        continue;
      }
      const event = operationalEvent('webhook.delivery_exhausted', {
        webhookId: item.webhookId,
        url: item.url,
        deliveryId: item.deliveryId,
        eventId: item.eventId,
        event: item.event,
        attempts: item.attemptNumber,
        lastError: item.error,
        lastResponseStatus: item.responseStatus,
        consecutiveFailures: count,
      });
      outcomes[i] = {
        consecutiveFailures: count,
        events: [await insertEventWithDeliveries(trx, item.accountId, event, null, item.webhookId)],
      };
    }
    return outcomes;
  });
}
