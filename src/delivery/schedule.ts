import type { Deps } from '../app/deps.js';
import type { FannedOutEvent } from '../events/emit.js';
import { addTracedJobs, enqueueBulk, jobs, type EnqueueItem } from '../platform/queues.js';
import { shardOfKey } from '../platform/shards.js';
import { withEnqueueSpan } from '../platform/tracing.js';
import { findPendingDeliveriesOfEvent } from './sql/fan-out.js';
import type { ScheduledDelivery } from './sql/rows.js';

// Schedule: from delivery rows to delivery jobs. The row is the outbox and the authority: a pending delivery
// names, in job_seq, the one job that may make its next attempt, and the job id is `<delivery id>.<job_seq>`, so
// adding a job twice is a no-op and a job of an older number does nothing. Whoever makes a delivery due (the
// fan-out at commit, a retry, a redeliver, a recovery, an ordering key's advance) schedules its job after commit;
// if that add is lost (Redis away, process killed, the job failed or was removed, Redis lost its data), the sweep
// finds the overdue row and schedules it again (sweep.ts).

/** An event with more deliveries than this gets one fan-out job, so a request never waits on a thousand adds. */
export const INLINE_FAN_OUT_MAX = 25;

/**
 * What a delivery job needs: the delivery, the job_seq it is scheduled with, what picks its shard (the
 * subscription, and the ordering key of an ordered delivery), for its name the event, and the trace it continues.
 */
export type JobRef = Pick<ScheduledDelivery, 'id' | 'job_seq' | 'webhook_id'> &
  Partial<Pick<ScheduledDelivery, 'event'>> & { ordering_key?: string | null; traceparent?: string };

/**
 * The shard of a delivery: a stable hash of its subscription, or of its subscription and ordering key when it has
 * one (docs/scaling.md#delivery-shards). Every add and every job lookup asks here, from the row.
 */
export const shardOf = (d: Pick<JobRef, 'webhook_id' | 'ordering_key'>, shards: number): number =>
  shardOfKey(d.ordering_key == null ? d.webhook_id : `${d.webhook_id}\n${d.ordering_key}`, shards);

export const deliveryJobId = (d: Pick<ScheduledDelivery, 'id' | 'job_seq'>): string => `${d.id}.${d.job_seq}`;

/**
 * The job's label after its catalog name, so that bull-board's list tells deliveries apart: the event, the
 * subscription and which attempt round the job is. Names and ids only: never the payload, the URL or a secret
 * (docs/adr/0062-delivery-jobs-in-bull-board.md).
 */
export const deliveryJobLabel = (d: JobRef): string | undefined =>
  d.event ? `${d.event} → ${d.webhook_id} (job ${d.job_seq})` : undefined;

/** What adding delivery jobs needs of the runtime. */
export type Scheduling = Pick<Deps, 'queues' | 'config' | 'logger'>;

/**
 * Adds one job per delivery, after `delayMs` (with `slotRps`: one held for its throttle's slot). Throws when
 * Redis refuses; callers after commit use scheduleDeliveries.
 */
export async function addDeliveryJobs(
  deps: Scheduling,
  refs: Array<JobRef & { slotRps?: number }>,
  delayMs = 0,
): Promise<void> {
  await enqueueBulk(deps.queues, deps.config, jobs.deliverWebhook, refs.map(deliveryJob(deps, delayMs)));
}

const deliveryJob =
  (deps: Scheduling, delayMs: number) =>
  (d: JobRef & { slotRps?: number }): EnqueueItem<typeof jobs.deliverWebhook> => ({
    data: { deliveryId: d.id, seq: d.job_seq, ...(d.slotRps ? { slotRps: d.slotRps } : {}) },
    label: deliveryJobLabel(d),
    shard: shardOf(d, deps.config.webhooks.shards),
    opts: { jobId: deliveryJobId(d), ...(delayMs > 0 ? { delay: delayMs } : {}) },
    ...(d.traceparent ? { traceparent: d.traceparent } : {}),
  });

/**
 * The first attempts of deliveries scheduled together: unordered ones of one shard share a deliver-webhooks job,
 * at most the WEBHOOK_BATCHING profile's first attempts per job, so a burst pays one job's moves in Redis per group
 * instead of per delivery.
 * A delivery left alone, an ordered one (its key's advance schedules the next) and one scheduled again get a job of
 * their own (docs/adr/0080-deliveries-per-job.md). Each job, and each delivery of a shared one, carries the trace
 * its delivery was scheduled in.
 */
export async function addFirstAttempts(deps: Scheduling, refs: JobRef[]): Promise<void> {
  const { deliveriesPerJob: size, shards } = deps.config.webhooks;
  const byShard = new Map<number, JobRef[]>();
  const alone: JobRef[] = [];
  for (const d of refs) {
    // A delivery scheduled again (job_seq > 1) already has its own job, which may wait for a retry's delay.
    if (size === 1 || d.ordering_key != null || d.job_seq !== 1) alone.push(d);
    else {
      const shard = shardOf(d, shards);
      (byShard.get(shard) ?? byShard.set(shard, []).get(shard)!).push(d);
    }
  }
  const groups: Array<{ shard: number; refs: JobRef[] }> = [];
  for (const [shard, list] of byShard) {
    for (let i = 0; i < list.length; i += size) groups.push({ shard, refs: list.slice(i, i + size) });
  }
  alone.push(...groups.filter((g) => g.refs.length === 1).map((g) => g.refs[0]!));
  const shared = groups.filter((g) => g.refs.length > 1);
  await Promise.all([
    alone.length > 0 && addTracedJobs(deps.queues, deps.config, jobs.deliverWebhook, alone.map(deliveryJob(deps, 0))),
    shared.length > 0 &&
      addTracedJobs(
        deps.queues,
        deps.config,
        jobs.deliverWebhooks,
        shared.map(({ shard, refs: group }) => ({
          data: {
            deliveries: group.map((d) => ({
              deliveryId: d.id,
              seq: d.job_seq,
              ...(d.traceparent ? { traceparent: d.traceparent } : {}),
            })),
          },
          label: groupJobLabel(group),
          shard,
          // Named for its first delivery's job, so the same group added twice is one job.
          opts: { jobId: `${deliveryJobId(group[0]!)}.group` },
        })),
      ),
  ]);
}

/** A shared job's label: how many deliveries, and the first one's event and subscription. */
const groupJobLabel = (refs: JobRef[]): string =>
  `${refs.length} deliveries, first ${refs[0]!.event ?? 'event'} → ${refs[0]!.webhook_id}`;

/**
 * After a commit that made deliveries due: adds their jobs. Never throws; the rows already say the deliveries are
 * due, so a failed add only delays them until the sweep schedules them again.
 */
export async function scheduleDeliveries(
  deps: Scheduling,
  refs: JobRef[],
  delayMs = 0,
  add = (list: JobRef[]): Promise<unknown> => addDeliveryJobs(deps, list, delayMs),
): Promise<void> {
  if (refs.length === 0) return;
  try {
    await add(refs);
  } catch (err) {
    deps.logger.warn({ err, deliveries: refs.length }, 'delivery jobs not added; the sweep will schedule them');
  }
}

/** After an emitting transaction committed: the jobs of its deliveries (one fan-out job for a large event). */
export async function scheduleCommitted(deps: Deps, events: FannedOutEvent[]): Promise<void> {
  const small = events.filter((e) => e.deliveryIds.length > 0 && e.deliveryIds.length <= INLINE_FAN_OUT_MAX);
  const large = events.filter((e) => e.deliveryIds.length > INLINE_FAN_OUT_MAX);
  // A delivery row is inserted holding job 1; an ordered one queued behind its key's head waits for the advance,
  // and one of a pulled kind for its consumer's poll.
  await scheduleDeliveries(
    deps,
    small.flatMap((e) => {
      const queued = new Set(e.queuedIds);
      return e.deliveryIds
        .map((id, i) => ({
          id,
          job_seq: 1,
          event: e.event,
          webhook_id: e.webhookIds[i]!,
          ordering_key: e.orderingKeys[i],
        }))
        .filter((d) => !queued.has(d.id));
    }),
    0,
    (refs) => deps.delivery.scheduleFirstAttempts(refs),
  );
  if (large.length === 0) return;
  try {
    await enqueueBulk(
      deps.queues,
      deps.config,
      jobs.fanOutEvent,
      large.map(({ eventId }) => ({ data: { eventId }, opts: { jobId: eventId } })),
    );
  } catch (err) {
    deps.logger.warn(
      { err, eventIds: large.map((e) => e.eventId) },
      'fan-out job not added; the sweep will schedule its deliveries',
    );
  }
}

/**
 * Runs `add` in a producer span made in the caller's context (docs/tracing.md), each delivery carrying that span's
 * traceparent: its job continues the trace it was scheduled in, even when a batch adds it with other commits'.
 */
export const withScheduleSpan = <T>(refs: JobRef[], add: (traced: JobRef[]) => Promise<T>): Promise<T> =>
  withEnqueueSpan('webhook-delivery', jobs.deliverWebhook.name, refs.length, (traceparent) =>
    add(traceparent ? refs.map((d) => ({ ...d, traceparent })) : refs),
  );

/** The fan-out job of a large event: the jobs of its pending deliveries, in bulk. Safe to re-run. */
export async function fanOutEvent(deps: Deps, eventId: string): Promise<number> {
  const due = await findPendingDeliveriesOfEvent(deps.db, eventId);
  await withScheduleSpan(due, (traced) => addFirstAttempts(deps, traced));
  return due.length;
}
