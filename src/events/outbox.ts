import type { Deps } from '../platform/deps.js';
import type { Trx } from '../platform/db.js';
import { enqueueBulk, jobs } from '../platform/queues.js';
import { insertEvent, markDispatched, type NewEvent } from './events.repository.js';

export type Emit = (event: NewEvent) => Promise<string>;

/**
 * Runs `work` in one transaction with an `emit` that writes events into the outbox table of that same
 * transaction. After commit the events are handed to the fan-out queue. If that hand-off fails (Redis away,
 * process killed), the relay sweep finds the rows with dispatched_at null and hands them off later.
 */
export async function transactWithEvents<T>(
  deps: Deps,
  accountId: string,
  work: (trx: Trx, emit: Emit) => Promise<T>,
): Promise<T> {
  const eventIds: string[] = [];
  const result = await deps.db.transaction(async (trx) => {
    const emit: Emit = async (event) => {
      const row = await insertEvent(trx, accountId, event);
      eventIds.push(row.id);
      return row.id;
    };
    return work(trx, emit);
  });
  // No dispatched_at update here: the fan-out job sets it in its own (batched) statement, which saves every
  // committing request a second write transaction. Until then the row looks undispatched; a sweep that sees it
  // re-adds the job under the same id, which is a no-op while the job exists.
  await relayEvents(deps, eventIds, { mark: false });
  return result;
}

/**
 * Hands committed events to the fan-out queue. The job id is the event id, so a second hand-off is a no-op.
 * `mark` (the sweep) also sets dispatched_at at once, so the next batch of a sweep run finds newer rows.
 */
export async function relayEvents(deps: Deps, eventIds: string[], opts: { mark?: boolean } = {}): Promise<void> {
  if (eventIds.length === 0) return;
  try {
    await enqueueBulk(deps.queues, deps.config, jobs.fanOutEvent, eventIds.map((eventId) => ({ data: { eventId }, opts: { jobId: eventId } })));
    if (opts.mark !== false) await markDispatched(deps.db, eventIds);
  } catch (err) {
    deps.logger.warn({ err, eventIds }, 'event relay failed; the outbox sweep will retry');
  }
}
