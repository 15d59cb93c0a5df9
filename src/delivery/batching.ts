import type { Connections } from '../app/deps.js';
import { createCoalescer, type Coalesced, type CoalescerOptions } from '../platform/coalescer.js';
import { isBackendUnavailable } from '../platform/outage.js';
import { exhaustWithEvents, type Exhaustion, type ExhaustionOutcome } from './exhaust.js';
import { advanceDistinctKeys } from './ordering.js';
import { addFirstAttempts, scheduleDeliveries, shardOf, withScheduleSpan, type JobRef } from './schedule.js';
import { loadSendContexts, type SendContext } from './sql/load.js';
import type { OrderingKey } from './sql/ordering-keys.js';
import { recordRetries, recordSuccesses, type AttemptRecord } from './sql/record.js';
import type { ScheduledDelivery } from './sql/rows.js';

// The delivery path's one batching point. Every step that many concurrent jobs (or commits) of one process take at
// once goes through a batch built here, with the runtime, so no batch outlives its runtime or is shared by two:
// one statement or one Redis round trip for all of them instead of one each, which is most of a worker's
// throughput (docs/performance.md). Each batch has one call in flight at a time: the items that come meanwhile go
// together when it returns, so under load the round trips per delivery fall as the rate rises, and an idle
// process waits for nothing (docs/adr/0078-one-batch-in-flight.md). A batch that Postgres refuses is re-run item
// by item, so one delivery's bad data fails that delivery alone; one that fails because the backend is away fails
// every item at once.
//
// Two batches also wait a little for company, where the wait costs no latency anyone sees:
// - a commit's first attempts wait up to the commit window (WEBHOOK_BATCHING) for other commits' to the same shard,
//   and share jobs with them (schedule.ts, addFirstAttempts);
// - an unordered delivery's attempt record waits up to the record window (WEBHOOK_BATCHING) for others: the
//   receiver already has it and only its own job waits on the record (docs/adr/0079-record-window.md). An ordered
//   delivery's record goes at once: its key's next delivery waits on it.

/** The statements that record an attempt and make its transition. */
export interface AttemptRecords {
  succeed: Coalesced<AttemptRecord, boolean>;
  retry: Coalesced<AttemptRecord, number | null>;
  exhaust: Coalesced<Exhaustion, ExhaustionOutcome>;
}

export interface DeliveryBatches {
  /** After commit: the jobs of first attempts, batched per shard with other commits'. Throws when Redis refuses. */
  scheduleFirstAttempts(refs: JobRef[]): Promise<void>;
  load: Coalesced<string, SendContext | undefined>;
  /** Records of a delivery with an ordering key: no window, the key's next delivery waits on them. */
  ordered: AttemptRecords;
  /** Records of any other delivery: up to the record window, or until half the worker's attempts wait in one. */
  unordered: AttemptRecords;
  /** An ordering key whose head reached a final state advances: its next delivery, whose job is added. */
  advance: Coalesced<OrderingKey, ScheduledDelivery | undefined>;
}

export function createDeliveryBatches(deps: Connections): DeliveryBatches {
  const { db, config } = deps;
  const { batchWindowMs, recordWindowMs, armWindowMs, deliveriesPerJob } = config.webhooks;
  const batch = <I, O>(run: (items: I[]) => Promise<O[]>, opts: CoalescerOptions = {}) =>
    createCoalescer(run, { failsAll: isBackendUnavailable, inFlight: 1, windowMs: batchWindowMs, ...opts });
  const records = (opts: CoalescerOptions): AttemptRecords => ({
    succeed: batch((items: AttemptRecord[]) => recordSuccesses(db, items), opts),
    retry: batch((items: AttemptRecord[]) => recordRetries(db, items), opts),
    exhaust: batch((items: Exhaustion[]) => exhaustWithEvents(db, items), opts),
  });
  // The attempts one worker process makes at once (its jobs, each up to deliveriesPerJob first attempts): a
  // windowed record goes early once half of them wait in it.
  const attempts = config.queueConcurrency['webhook-delivery']! * deliveriesPerJob;

  const firstAttemptsOfShard = new Map<number, Coalesced<JobRef, void>>();
  const firstAttempts = (shard: number) => {
    let add = firstAttemptsOfShard.get(shard);
    if (!add) {
      add = batch(
        async (refs: JobRef[]) => {
          await addFirstAttempts(deps, refs);
          return refs.map(() => undefined);
        },
        // A job's worth waits for nothing more, and a commit with none other close before it waits for nothing.
        { windowMs: armWindowMs, flushAt: deliveriesPerJob, idleSkipsWindow: true },
      );
      firstAttemptsOfShard.set(shard, add);
    }
    return add;
  };

  return {
    // Each commit's producer span is made in its own context before its deliveries join a batch, and each job
    // carries its delivery's trace, so batching never mixes traces.
    scheduleFirstAttempts: (refs) =>
      withScheduleSpan(refs, async (traced) => {
        const ordered = traced.filter((d) => d.ordering_key != null);
        await Promise.all([
          ordered.length > 0 && addFirstAttempts(deps, ordered),
          ...traced
            .filter((d) => d.ordering_key == null)
            .map((d) => firstAttempts(shardOf(d, config.webhooks.shards))(d)),
        ]);
      }),
    load: batch((ids: string[]) => loadSendContexts(db, ids)),
    ordered: records({}),
    unordered: records({
      windowMs: Math.max(batchWindowMs, recordWindowMs),
      maxBatch: Math.max(1, Math.ceil(attempts / 2)),
    }),
    advance: batch(async (keys: OrderingKey[]) => {
      const heads = await advanceDistinctKeys(db, keys);
      // The new heads' jobs in one add; one lost is scheduled by the sweep (a head is due now).
      await scheduleDeliveries(
        deps,
        heads.filter((h) => h !== undefined),
      );
      return heads;
    }),
  };
}
