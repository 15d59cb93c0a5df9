import { createCoalescer, type Coalesced, type CoalescerOptions } from '../platform/coalescer.js';
import type { Db } from '../platform/db.js';
import { isBackendUnavailable } from '../platform/outage.js';
import {
  loadSendContexts,
  recordRetries,
  recordSuccesses,
  type ArmedDelivery,
  type AttemptRecord,
  type SendContext,
} from './deliveries.repository.js';
import { exhaustWithEvents, type Exhaustion, type ExhaustionOutcome } from './exhaustion.js';
import { advanceOrderingKeys, type OrderingKey } from './ordering-keys.repository.js';
import { armDeliveryJobs, type Arming } from './dispatch.js';

// The delivery pipeline's statements, coalesced across the concurrent jobs of one worker process: with 50+
// deliveries in flight, one statement for all of them instead of one each is most of the worker's throughput.
// A batch that Postgres refuses is re-run item by item, so one delivery's bad data fails that delivery alone.
// Each statement has one batch in flight at a time: the deliveries that reach it meanwhile go together when it
// returns, so under load the round trips per delivery fall as the rate rises, and an idle worker waits for nothing
// (docs/adr/0078-one-batch-in-flight.md). `batchWindowMs` (WEBHOOK_BATCH_WINDOW_MS) also makes the first call of a
// batch wait that long for others (docs/performance.md).
//
// An unordered delivery's attempt record waits up to `recordWindowMs` (WEBHOOK_RECORD_WINDOW_MS) for others: the
// receiver already has it, and only its own job waits on the record, so the wait costs no latency anyone sees and
// at a steady rate one statement records the attempts of many deliveries (docs/adr/0079-record-window.md). An
// ordered delivery's record goes at once: its key's next delivery waits on it.

/** The statements that record an attempt and make its transition. */
export interface AttemptRecords {
  succeed: Coalesced<AttemptRecord, boolean>;
  retry: Coalesced<AttemptRecord, number | null>;
  exhaust: Coalesced<Exhaustion, ExhaustionOutcome>;
}

export interface DeliveryBatches {
  load: Coalesced<string, SendContext | undefined>;
  /** Records of a delivery with an ordering key: no window, the key's next delivery waits on them. */
  ordered: AttemptRecords;
  /** Records of any other delivery: up to the record window, or until half the worker's attempts wait in one. */
  unordered: AttemptRecords;
  /**
   * The hand-off of an ordering key whose head reached a final state: its next delivery, whose job is added
   * (ordering.service.ts).
   */
  handOff: Coalesced<OrderingKey, ArmedDelivery | undefined>;
}

/** The webhook-delivery queue's settings (src/platform/config.ts) come with `arming`. */
export function createDeliveryBatches(db: Db, arming: Arming): DeliveryBatches {
  const { batchWindowMs, recordWindowMs } = arming.config.webhooks;
  // The attempts one worker process makes at once (its jobs, each up to deliveriesPerJob first attempts): a
  // windowed record goes early once half of them wait in it.
  const attempts = arming.config.queueConcurrency['webhook-delivery']! * arming.config.webhooks.deliveriesPerJob;
  const opts = { failsAll: isBackendUnavailable, windowMs: batchWindowMs, inFlight: 1 };
  const records = (o: CoalescerOptions): AttemptRecords => ({
    succeed: createCoalescer((items: AttemptRecord[]) => recordSuccesses(db, items), o),
    retry: createCoalescer((items: AttemptRecord[]) => recordRetries(db, items), o),
    exhaust: createCoalescer((items: Exhaustion[]) => exhaustWithEvents(db, items), o),
  });
  return {
    load: createCoalescer((ids: string[]) => loadSendContexts(db, ids), opts),
    ordered: records(opts),
    unordered: records({
      ...opts,
      windowMs: Math.max(batchWindowMs, recordWindowMs),
      maxBatch: Math.max(1, Math.ceil(attempts / 2)),
    }),
    handOff: createCoalescer(async (keys: OrderingKey[]) => {
      const heads = await advanceDistinctKeys(db, keys);
      // The new heads' jobs in one add; one lost is re-armed by the relay sweep (a head is due now).
      await armDeliveryJobs(
        arming,
        heads.filter((h) => h !== undefined),
      );
      return heads;
    }, opts),
  };
}

/** A batch may name a key twice (a worker's hand-off and a repeat): its head goes to the first. */
async function advanceDistinctKeys(db: Db, keys: OrderingKey[]): Promise<Array<ArmedDelivery | undefined>> {
  const ids = keys.map((k) => JSON.stringify([k.webhook_id, k.ordering_key]));
  const first = ids.map((id, i) => ids.indexOf(id) === i);
  const heads = await advanceOrderingKeys(
    db,
    keys.filter((_k, i) => first[i]),
  );
  let j = 0;
  return keys.map((_k, i) => (first[i] ? heads[j++] : undefined));
}
