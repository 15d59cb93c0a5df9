import type { NewEvent } from '../events/events.repository.js';
import type { Trx } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { insertEventWithDeliveries, type FannedOutEvent } from './deliveries.repository.js';
import { dispatchCommitted } from './dispatch.js';

export type Emit = (event: NewEvent) => Promise<string>;

/**
 * Runs `work` in one transaction with an `emit` that writes each event, and one delivery row per subscription
 * that wants it, into that same transaction. After commit the deliveries are handed to the queue; if that
 * hand-off fails (Redis away, process killed) the relay sweep finds the overdue rows and re-arms them.
 */
export async function transactWithEvents<T>(
  deps: Deps,
  accountId: string,
  work: (trx: Trx, emit: Emit) => Promise<T>,
): Promise<T> {
  const emitted: FannedOutEvent[] = [];
  const result = await deps.db.transaction(async (trx) => {
    const emit: Emit = async (event) => {
      const fannedOut = await insertEventWithDeliveries(trx, accountId, event);
      emitted.push(fannedOut);
      return fannedOut.eventId;
    };
    return work(trx, emit);
  });
  await dispatchCommitted(deps, emitted);
  return result;
}
