import type { Connections } from '../app/deps.js';
import type { Sealer } from '../platform/crypto.js';
import type { HttpClient } from '../platform/http-client.js';
import { createDeliveryBatches, type DeliveryBatches } from './batching.js';
import { createWebhookThrottle, type WebhookThrottle } from './throttle.js';
import { KINDS } from './kinds/registry.js';
import type { Transports } from './transport.js';
import { createUrlRing } from './transports/broker-pool.js';

// The delivery of webhook events, in the order a delivery lives it (docs/architecture.md#the-life-of-a-delivery):
//
//   emit (in the caller's transaction)    the event row and one delivery row per subscription that wants it
//     │                                   (sql/fan-out.ts): the outbox, committed with the caller's own writes
//     ▼
//   schedule (after commit)               a BullMQ job per delivery, on its shard (schedule.ts); a lost add is
//     │                                   the sweep's to repair (sweep.ts)
//     ▼
//   attempt (a worker runs the job)       load → sign → send through the transport of its kind → record
//     │                                   (attempt.ts, transport.ts, kinds/registry.ts, record.ts)
//     ▼
//   record                                the attempt row and the transition, one statement (sql/record.ts)
//
// A delivery row is the authority, a small state machine whose every transition names the state it leaves and the
// job (job_seq) allowed to make it, so a late or repeated job changes nothing:
//
//   pending ──2xx──▶ succeeded            pending ──failed, retries left──▶ pending (job_seq + 1, due later)
//   pending ──last retry failed──▶ exhausted           pending ──410 / subscription stopped──▶ failed
//   pending, no due time ──a poll returns it──▶ succeeded   (a pulled kind: docs/adr/0089-poll-destinations.md)
//   succeeded | failed | exhausted ──redeliver, recover──▶ pending (job_seq + 1, due now)
//
// Ordered subscriptions send one delivery per ordering key at a time: a final state advances the key to its next
// delivery (ordering.ts). Everything that batches across jobs or commits is built in batching.ts.

/** A runtime's delivery machinery: its batches, its throttle and its transports, one per destination kind. */
export interface Delivery extends DeliveryBatches {
  /** Per-subscription delivery slots in Redis, shared by every worker process. */
  throttle: WebhookThrottle;
  transports: Transports;
  close(): Promise<void>;
}

/** `sealer` opens sealed destination URLs (a broker's), sealed as webhook secrets are. */
export function createDelivery(connections: Connections, http: HttpClient, sealer: Sealer): Delivery {
  const { config, db, redis, logger } = connections;
  const urls = createUrlRing(sealer);
  const parts = { config, db, redis, logger, http, urls };
  const transports: Transports = Object.fromEntries(KINDS.map((k) => [k.name, k.transport(parts)]));
  return {
    ...createDeliveryBatches(connections),
    throttle: createWebhookThrottle(redis, config.bullmqPrefix),
    transports,
    close: async () => {
      await Promise.all(Object.values(transports).map((t) => t.close()));
    },
  };
}
