import type { Deps } from '../platform/deps.js';
import { enqueueBulk, jobs } from '../platform/queues.js';
import { createBatcher, perOwner } from './batcher.js';
import { findUnsentDeliveryIds, type FannedOutEvent } from './fan-out.repository.js';

// From committed delivery rows to delivery jobs. The rows are the outbox (fan-out.repository.ts): the committing
// request adds their jobs right after commit, and the relay sweep adds the jobs of any row that missed it. Every
// job id is the delivery id, so adding a job twice is a no-op and no delivery is queued twice.

/** An event with more deliveries than this gets one fan-out job, so a request never waits on a thousand adds. */
export const INLINE_FAN_OUT_MAX = 25;

/** Enqueues delivery jobs. `round` distinguishes a redelivery or recovery from the first round (fresh job id). */
export async function enqueueDeliveries(deps: Deps, deliveryIds: string[], round?: string): Promise<void> {
  await enqueueBulk(
    deps.queues,
    deps.config,
    jobs.deliverWebhook,
    deliveryIds.map((deliveryId) => ({ data: { deliveryId }, opts: { jobId: round ? `${deliveryId}.${round}` : deliveryId } })),
  );
}

// Requests committing in the same tick share one addBulk (one Redis round trip) instead of one each.
const enqueueBatcher = perOwner((deps: Deps) =>
  createBatcher(async (groups: string[][]) => {
    await enqueueDeliveries(deps, groups.flat());
    return groups.map(() => undefined);
  }),
);

/**
 * After commit: the jobs of the deliveries the committed events created. Never throws; when Redis is away the
 * rows stay unsent and the relay sweep enqueues them once it is back.
 */
export async function dispatchCommitted(deps: Deps, events: FannedOutEvent[]): Promise<void> {
  const small = events.filter((e) => e.deliveryIds.length > 0 && e.deliveryIds.length <= INLINE_FAN_OUT_MAX);
  const large = events.filter((e) => e.deliveryIds.length > INLINE_FAN_OUT_MAX);
  if (small.length === 0 && large.length === 0) return;
  try {
    await Promise.all([
      small.length ? enqueueBatcher(deps)(small.flatMap((e) => e.deliveryIds)) : undefined,
      enqueueBulk(deps.queues, deps.config, jobs.fanOutEvent, large.map(({ eventId }) => ({ data: { eventId }, opts: { jobId: eventId } }))),
    ]);
  } catch (err) {
    deps.logger.warn({ err, eventIds: events.map((e) => e.eventId) }, 'delivery enqueue failed; the relay sweep will retry');
  }
}

/** The fan-out job of a large event: its unsent deliveries' jobs, in bulk. Safe to re-run. */
export async function fanOutEvent(deps: Deps, eventId: string): Promise<number> {
  const rows = await findUnsentDeliveryIds(deps.db, { eventId });
  await enqueueDeliveries(deps, rows.map((r) => r.id));
  return rows.length;
}

/**
 * The relay sweep: re-adds the jobs of deliveries older than `olderThan` that are still unsent, oldest first, in
 * batches of `batch`, at most `maxBatches` per run. Rows whose job exists (a backlog) cost a no-op add.
 */
export async function relayUnsentDeliveries(deps: Deps, olderThan: Date, batch: number, maxBatches: number): Promise<number> {
  let after: { createdAt: Date; id: string } | undefined;
  let relayed = 0;
  for (let i = 0; i < maxBatches; i++) {
    const rows = await findUnsentDeliveryIds(deps.db, { olderThan, after, limit: batch });
    if (rows.length === 0) break;
    await enqueueDeliveries(deps, rows.map((r) => r.id));
    relayed += rows.length;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.created_at, id: last.id };
    if (rows.length < batch) break;
  }
  return relayed;
}
