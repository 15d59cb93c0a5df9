import type { NewEvent } from '../events/events.repository.js';
import type { Trx } from '../platform/db.js';
import type { Deps } from '../app/deps.js';
import { insertEventWithDeliveries, type FannedOutEvent } from './deliveries.repository.js';
import { dispatchCommitted } from './dispatch.js';

export interface EmitOptions {
  /** A subscription that must not get this event (the one it is about). */
  exceptWebhookId?: string;
}

export type Emit = (event: NewEvent, opts?: EmitOptions) => Promise<string>;
/** Emit for any account: for work that spans accounts (sweeps, a worker's batch). */
export type EmitFor = (accountId: string, event: NewEvent, opts?: EmitOptions) => Promise<string>;

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
  return transactWithEventsOfAccounts(deps, (trx, emitFor) => work(trx, (event, opts) => emitFor(accountId, event, opts)));
}

/** transactWithEvents for work that writes events of several accounts in one transaction (sweeps). */
export async function transactWithEventsOfAccounts<T>(deps: Deps, work: (trx: Trx, emitFor: EmitFor) => Promise<T>): Promise<T> {
  const emitted: FannedOutEvent[] = [];
  const result = await deps.db.transaction(async (trx) =>
    work(trx, async (accountId, event, opts) => {
      const fannedOut = await insertEventWithDeliveries(trx, accountId, event, null, opts?.exceptWebhookId ?? null);
      emitted.push(fannedOut);
      return fannedOut.eventId;
    }),
  );
  await dispatchCommitted(deps, emitted);
  return result;
}
