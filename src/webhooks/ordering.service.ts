import type { Deps } from '../app/deps.js';
import type { Trx } from '../platform/transaction.js';
import type { ArmedDelivery } from './deliveries.repository.js';
import { enqueueDeliveryJobs } from './dispatch.js';
import {
  advanceOrderingKey,
  advanceOrderingKeys,
  findStrandedOrderingKeys,
  type OrderingKey,
} from './ordering-keys.repository.js';

// Ordered delivery's moves outside the fan-out (docs/webhooks.md#ordered-delivery): the hand-off to a key's next
// delivery when its head reaches a final state, reopened deliveries rejoining their keys, and the relay sweep's
// repair of a key whose hand-off was lost with its process.

/**
 * After an ordered delivery reached a final state (committed): its key's next delivery becomes the head and its
 * job is added, coalesced with the worker's other hand-offs. Throws only if Postgres is away; the relay sweep
 * repairs the key then.
 */
export async function handOffOrderingKey(deps: Deps, key: OrderingKey): Promise<void> {
  await deps.deliveryBatches.handOff(key);
}

/**
 * Reopened deliveries, in the reopening transaction: the unordered ones as they are (due now), and for the keys
 * of the ordered ones (queued at their place) the head each key gets if it had none in flight. Answers what to
 * arm after commit. Keys are locked in one order, so two recoveries cannot deadlock on them.
 */
export async function rejoinOrderingKeys(trx: Trx, reopened: ArmedDelivery[]): Promise<ArmedDelivery[]> {
  const armed = reopened.filter((d) => d.ordering_key === null);
  const keys = new Map<string, OrderingKey>();
  for (const d of reopened)
    if (d.ordering_key !== null)
      keys.set(JSON.stringify([d.webhook_id, d.ordering_key]), {
        webhook_id: d.webhook_id,
        ordering_key: d.ordering_key,
      });
  for (const id of [...keys.keys()].sort()) {
    const head = await advanceOrderingKey(trx, keys.get(id)!);
    if (head) armed.push(head);
  }
  return armed;
}

/**
 * The relay sweep's part for ordered keys: a key whose head has been final for more than `overdueMs` (its
 * process ended before the hand-off) is handed off now. Answers how many keys got a new head.
 */
export async function relayStrandedOrderingKeys(deps: Deps, overdueMs: number, limit: number): Promise<number> {
  const keys = await findStrandedOrderingKeys(deps.db, overdueMs, limit);
  const heads = (await advanceOrderingKeys(deps.db, keys)).filter((h) => h !== undefined);
  await enqueueDeliveryJobs(deps, heads);
  return heads.length;
}
