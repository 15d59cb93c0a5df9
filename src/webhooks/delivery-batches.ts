import { createCoalescer, type Coalesced } from '../platform/coalescer.js';
import type { Db } from '../platform/db.js';
import { isBackendUnavailable } from '../platform/outage.js';
import {
  loadSendContexts,
  recordRetries,
  recordSuccesses,
  type AttemptRecord,
  type SendContext,
} from './deliveries.repository.js';
import { exhaustWithEvents, type Exhaustion, type ExhaustionOutcome } from './exhaustion.js';

// The delivery pipeline's statements, coalesced across the concurrent jobs of one worker process: with 50+
// deliveries in flight, one statement for all of them instead of one each is most of the worker's throughput.
// A batch that Postgres refuses is re-run item by item, so one delivery's bad data fails that delivery alone.
// `windowMs` (WEBHOOK_BATCH_WINDOW_MS): at a steady rate each job runs alone in its turn, and a few milliseconds
// of waiting let the deliveries of those milliseconds share one statement (docs/performance.md).

export interface DeliveryBatches {
  load: Coalesced<string, SendContext | undefined>;
  succeed: Coalesced<AttemptRecord, boolean>;
  retry: Coalesced<AttemptRecord, number | null>;
  exhaust: Coalesced<Exhaustion, ExhaustionOutcome>;
}

export function createDeliveryBatches(db: Db, windowMs = 0): DeliveryBatches {
  const opts = { failsAll: isBackendUnavailable, windowMs };
  return {
    load: createCoalescer((ids: string[]) => loadSendContexts(db, ids), opts),
    succeed: createCoalescer((items: AttemptRecord[]) => recordSuccesses(db, items), opts),
    retry: createCoalescer((items: AttemptRecord[]) => recordRetries(db, items), opts),
    exhaust: createCoalescer((items: Exhaustion[]) => exhaustWithEvents(db, items), opts),
  };
}
