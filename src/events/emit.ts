import type { NewEvent } from './events.repository.js';
import { transaction, type Trx } from '../platform/transaction.js';
import type { Deps } from '../app/deps.js';
import { publishEventWakeups } from './event-wakeup.js';

export interface EmitOptions {
  /** A subscription that must not get this event (the one it is about). */
  exceptWebhookId?: string;
}

/** An event written with the rows it fans out into (one delivery per subscription that wants it). */
export interface FannedOutEvent {
  eventId: string;
  /** The event type. */
  event: string;
  deliveryIds: string[];
  /** The subscription of each delivery, in the order of deliveryIds. */
  webhookIds: string[];
  /** The ordering key of each delivery, in the order of deliveryIds; null: its subscription is unordered. */
  orderingKeys: Array<string | null>;
  /**
   * The deliveries not due at commit, which get no job then: ordered ones queued behind their key's head (armed by
   * its advance), and those of a pulled kind (a poll), which wait for their consumer.
   */
  queuedIds: string[];
}

/**
 * Who receives events: the fan-out insert written into the transaction and the schedule after commit. Webhooks
 * provide it (src/app wires it into Deps), so this module, imported by every folder that emits, imports none of
 * them.
 */
export interface EventFanOut {
  insertEventWithDeliveries(
    trx: Trx,
    accountId: string,
    e: NewEvent,
    onlyTo: string | null,
    except: string | null,
  ): Promise<FannedOutEvent>;
  scheduleCommitted(deps: Deps, events: FannedOutEvent[]): Promise<void>;
}

export type Emit = (event: NewEvent, opts?: EmitOptions) => Promise<string>;
/** Emit for any account: for work that spans accounts (sweeps, a worker's batch). */
export type EmitFor = (accountId: string, event: NewEvent, opts?: EmitOptions) => Promise<string>;

/**
 * Runs `work` in one transaction with an `emit` that writes each event, and one delivery row per subscription
 * that wants it, into that same transaction. After commit the deliveries are handed to the queue, without the
 * caller waiting for it (deps.background); if that schedule fails (Redis away, process killed) the sweep
 * finds the overdue rows and schedules again them.
 */
export async function transactWithEvents<T>(
  deps: Deps,
  accountId: string,
  work: (trx: Trx, emit: Emit) => Promise<T>,
): Promise<T> {
  return transactWithEventsOfAccounts(deps, (trx, emitFor) =>
    work(trx, (event, opts) => emitFor(accountId, event, opts)),
  );
}

/** transactWithEvents for work that writes events of several accounts in one transaction (sweeps). */
export async function transactWithEventsOfAccounts<T>(
  deps: Deps,
  work: (trx: Trx, emitFor: EmitFor) => Promise<T>,
): Promise<T> {
  const emitted: FannedOutEvent[] = [];
  const accounts: string[] = [];
  const result = await transaction(deps.db, async (trx) =>
    work(trx, async (accountId, event, opts) => {
      const fannedOut = await deps.eventFanOut.insertEventWithDeliveries(
        trx,
        accountId,
        event,
        null,
        opts?.exceptWebhookId ?? null,
      );
      emitted.push(fannedOut);
      accounts.push(accountId);
      return fannedOut.eventId;
    }),
  );
  // The caller is answered at commit: the schedule to the queue may wait for other commits' deliveries (the arm
  // window), and waiting for it would buy nothing, since a lost schedule is the sweep's to schedule again.
  if (emitted.length > 0) {
    deps.background.add(deps.eventFanOut.scheduleCommitted(deps, emitted), 'delivery schedule');
    deps.background.add(publishEventWakeups(deps, accounts), 'MCP events wakeup');
  }
  return result;
}
