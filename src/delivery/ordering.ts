import type { Db } from '../platform/db.js';
import type { Trx } from '../platform/transaction.js';
import type { ScheduledDelivery } from './sql/rows.js';
import { advanceOrderingKey, advanceOrderingKeys, type OrderingKey } from './sql/ordering-keys.js';

// Ordered delivery (docs/webhook-retries.md#ordered-delivery). The deliveries of one subscription and ordering key go
// one at a time, in commit order: the fan-out makes the first the key's head and queues the rest with no due time. When
// the head reaches a final state its key advances: the next delivery becomes the head and is scheduled. A key whose
// advance was lost with its process is advanced by the sweep (sweep.ts).

/** The identity of an ordering key: `webhook_id` and `ordering_key` as one string. */
const keyOf = (d: OrderingKey): string => JSON.stringify([d.webhook_id, d.ordering_key]);

/**
 * Reopened deliveries, in the reopening transaction: the unordered ones as they are (due now), and for the keys
 * of the ordered ones (queued at their place) the head each key gets if it had none in flight. Answers what to
 * schedule after commit. Keys are locked in one order, so two recoveries cannot deadlock on them.
 */
export async function rejoinOrderingKeys(trx: Trx, reopened: ScheduledDelivery[]): Promise<ScheduledDelivery[]> {
  const due = reopened.filter((d) => d.ordering_key === null);
  const keys = new Map<string, OrderingKey>();
  for (const d of reopened) {
    if (d.ordering_key === null) continue;
    const key = { webhook_id: d.webhook_id, ordering_key: d.ordering_key };
    keys.set(keyOf(key), key);
  }
  for (const id of [...keys.keys()].sort()) {
    const head = await advanceOrderingKey(trx, keys.get(id)!);
    if (head) due.push(head);
  }
  return due;
}

/** Advances many keys in one statement; a key named twice in a batch (an advance and a repeat) goes to the first. */
export async function advanceDistinctKeys(db: Db, keys: OrderingKey[]): Promise<Array<ScheduledDelivery | undefined>> {
  const ids = keys.map(keyOf);
  const first = ids.map((id, i) => ids.indexOf(id) === i);
  const heads = await advanceOrderingKeys(
    db,
    keys.filter((_k, i) => first[i]),
  );
  let j = 0;
  return keys.map((_k, i) => (first[i] ? heads[j++] : undefined));
}
