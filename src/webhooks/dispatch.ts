import type { JobState, Queue } from 'bullmq';
import type { Deps } from '../app/deps.js';
import { createCoalescer, type Coalesced } from '../platform/coalescer.js';
import { isBackendUnavailable } from '../platform/outage.js';
import { enqueueBulk, jobs, type Queues } from '../platform/queues.js';
import { tracingState } from '../platform/tracing.js';
import {
  findOverdueDeliveries,
  findPendingDeliveriesOfEvent,
  bumpDeliveryJobSeqs,
  type ArmedDelivery,
} from './deliveries.repository.js';
import type { FannedOutEvent } from '../events/emit.js';
import { partitionOfKey } from '../platform/partitions.js';
import { retiredPartitions } from './partition-registry.js';

// From delivery rows to delivery jobs. The row is the outbox and the authority: a pending delivery names, in
// job_seq, the one job that may make its next attempt, and the job id is `<delivery id>.<job_seq>`, so adding a
// job twice is a no-op and a job of an older number does nothing. Whoever makes a delivery due (fan-out at commit,
// a retry, a redeliver, a recovery) adds its job after commit; if that add is lost (Redis away, process killed,
// the job failed or was removed, Redis lost its data), the relay sweep finds the overdue row and re-arms it.

/** An event with more deliveries than this gets one fan-out job, so a request never waits on a thousand adds. */
export const INLINE_FAN_OUT_MAX = 25;

/**
 * What a delivery job needs: the delivery, the job_seq it is armed with, what picks its partition (the subscription,
 * and the ordering key of an ordered delivery), and for its name the event.
 */
export type JobRef = Pick<ArmedDelivery, 'id' | 'job_seq' | 'webhook_id'> &
  Partial<Pick<ArmedDelivery, 'event'>> & { ordering_key?: string | null };

/**
 * The delivery partition of a delivery: a stable hash of its subscription, or of its subscription and ordering key
 * when it has one (docs/scaling.md#delivery-partitions). Every add and every job lookup asks here, from the row.
 */
export const deliveryPartitionOf = (d: Pick<JobRef, 'webhook_id' | 'ordering_key'>, partitions: number): number =>
  partitionOfKey(d.ordering_key == null ? d.webhook_id : `${d.webhook_id}\n${d.ordering_key}`, partitions);

export const deliveryJobId = (d: Pick<ArmedDelivery, 'id' | 'job_seq'>): string => `${d.id}.${d.job_seq}`;

/**
 * The job's label after its catalog name, so that bull-board's list tells deliveries apart: the event, the
 * subscription and which attempt round the job is. Names and ids only: never the payload, the URL or a secret
 * (docs/adr/0062-delivery-jobs-in-bull-board.md).
 */
export const deliveryJobLabel = (d: JobRef): string | undefined =>
  d.event ? `${d.event} → ${d.webhook_id} (job ${d.job_seq})` : undefined;

/** What adding delivery jobs needs of the runtime. */
export type Arming = Pick<Deps, 'queues' | 'config' | 'logger'>;

/**
 * Adds the jobs of armed deliveries, after `delayMs` (with `slotRps`: one held for its throttle's slot). Throws when
 * Redis refuses; callers after commit use dispatch.
 */
export async function enqueueDeliveryJobs(
  deps: Arming,
  armed: Array<JobRef & { slotRps?: number }>,
  delayMs = 0,
): Promise<void> {
  await enqueueBulk(
    deps.queues,
    deps.config,
    jobs.deliverWebhook,
    armed.map((d) => ({
      data: { deliveryId: d.id, seq: d.job_seq, ...(d.slotRps ? { slotRps: d.slotRps } : {}) },
      label: deliveryJobLabel(d),
      partition: deliveryPartitionOf(d, deps.config.webhooks.partitions),
      opts: { jobId: deliveryJobId(d), ...(delayMs > 0 ? { delay: delayMs } : {}) },
    })),
  );
}

/**
 * The first attempts of deliveries armed together (a transaction's events, an event's fan-out): unordered ones of
 * one partition share a deliver-webhooks job, WEBHOOK_DELIVERIES_PER_JOB at most, so a burst pays one job's moves
 * in Redis per group instead of per delivery. A delivery left alone, an ordered one (its key's hand-off arms the
 * next) and one armed again get a job of their own (docs/adr/0080-deliveries-per-job.md).
 */
export async function enqueueFirstAttempts(deps: Arming, armed: JobRef[]): Promise<void> {
  const { deliveriesPerJob: size, partitions } = deps.config.webhooks;
  const byPartition = new Map<number, JobRef[]>();
  const alone: JobRef[] = [];
  for (const d of armed) {
    // A delivery armed again (job_seq > 1) already has its own job, which may wait for a retry's delay.
    if (size === 1 || d.ordering_key != null || d.job_seq !== 1) alone.push(d);
    else {
      const p = deliveryPartitionOf(d, partitions);
      (byPartition.get(p) ?? byPartition.set(p, []).get(p)!).push(d);
    }
  }
  const groups: Array<{ partition: number; refs: JobRef[] }> = [];
  for (const [partition, refs] of byPartition) {
    for (let i = 0; i < refs.length; i += size) groups.push({ partition, refs: refs.slice(i, i + size) });
  }
  alone.push(...groups.filter((g) => g.refs.length === 1).map((g) => g.refs[0]!));
  const shared = groups.filter((g) => g.refs.length > 1);
  await Promise.all([
    alone.length > 0 && enqueueDeliveryJobs(deps, alone),
    shared.length > 0 &&
      enqueueBulk(
        deps.queues,
        deps.config,
        jobs.deliverWebhooks,
        shared.map(({ partition, refs }) => ({
          data: { deliveries: refs.map((d) => ({ deliveryId: d.id, seq: d.job_seq })) },
          label: groupJobLabel(refs),
          partition,
          // Named for its first delivery's job, so the same group added twice is one job.
          opts: { jobId: `${deliveryJobId(refs[0]!)}.group` },
        })),
      ),
  ]);
}

/** A shared job's label: how many deliveries, and the first one's event and subscription. */
const groupJobLabel = (refs: JobRef[]): string =>
  `${refs.length} deliveries, first ${refs[0]!.event ?? 'event'} → ${refs[0]!.webhook_id}`;

/**
 * After a commit that made deliveries due: adds their jobs. Never throws; the rows already say the deliveries are
 * due, so a failed add only delays them until the relay sweep re-arms them.
 */
export async function armDeliveryJobs(
  deps: Arming,
  armed: JobRef[],
  delayMs = 0,
  enqueue = (refs: JobRef[]): Promise<unknown> => enqueueDeliveryJobs(deps, refs, delayMs),
): Promise<void> {
  if (armed.length === 0) return;
  try {
    await enqueue(armed);
  } catch (err) {
    deps.logger.warn({ err, deliveries: armed.length }, 'delivery enqueue failed; the relay sweep will re-arm them');
  }
}

/** After an emitting transaction committed: the jobs of its deliveries (one fan-out job for a large event). */
export async function dispatchCommitted(deps: Deps, events: FannedOutEvent[]): Promise<void> {
  const small = events.filter((e) => e.deliveryIds.length > 0 && e.deliveryIds.length <= INLINE_FAN_OUT_MAX);
  const large = events.filter((e) => e.deliveryIds.length > INLINE_FAN_OUT_MAX);
  // A delivery row is inserted holding job 1; an ordered one queued behind its key's head waits for the hand-off.
  await armDeliveryJobs(
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
    (refs) => armFirstAttempts(deps, refs),
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
      'fan-out enqueue failed; the relay sweep will re-arm its deliveries',
    );
  }
}

/**
 * After a commit, the first attempts' jobs of its deliveries. Unordered ones wait for the deliveries that other
 * commits of this process arm meanwhile, per delivery partition: those that come while an add to the partition is
 * out, or within WEBHOOK_ARM_WINDOW_MS of the first, go together and share jobs (enqueueFirstAttempts). A job's
 * worth goes at once, and so does a commit that comes more than the window after the one before it (an idle service
 * pays no window). With traces on, a commit's jobs are added in its own trace, so no other commit's deliveries join
 * them.
 */
async function armFirstAttempts(deps: Arming, refs: JobRef[]): Promise<void> {
  if (tracingState.on || deps.config.webhooks.deliveriesPerJob === 1) return enqueueFirstAttempts(deps, refs);
  const ordered = refs.filter((d) => d.ordering_key != null);
  await Promise.all([
    ordered.length > 0 && enqueueDeliveryJobs(deps, ordered),
    ...refs
      .filter((d) => d.ordering_key == null)
      .map((d) => firstAttemptAdder(deps, deliveryPartitionOf(d, deps.config.webhooks.partitions))(d)),
  ]);
}

/** Per runtime (its queues) and delivery partition: the adds of first attempts, one in flight at a time. */
const firstAttemptAdders = new WeakMap<Queues, Map<number, Coalesced<JobRef, void>>>();

function firstAttemptAdder(deps: Arming, partition: number): Coalesced<JobRef, void> {
  let adders = firstAttemptAdders.get(deps.queues);
  if (!adders) firstAttemptAdders.set(deps.queues, (adders = new Map()));
  let adder = adders.get(partition);
  if (!adder) {
    const add = async (batch: JobRef[]) => {
      await enqueueFirstAttempts(deps, batch);
      return batch.map(() => undefined);
    };
    adder = createCoalescer(add, {
      failsAll: isBackendUnavailable,
      inFlight: 1,
      windowMs: deps.config.webhooks.armWindowMs,
      // A job's worth waits for nothing more, and a commit with none other close before it waits for nothing.
      flushAt: deps.config.webhooks.deliveriesPerJob,
      idleSkipsWindow: true,
    });
    adders.set(partition, adder);
  }
  return adder;
}

/** The fan-out job of a large event: the jobs of its pending deliveries, in bulk. Safe to re-run. */
export async function fanOutEvent(deps: Deps, eventId: string): Promise<number> {
  const armed = await findPendingDeliveriesOfEvent(deps.db, eventId);
  await enqueueFirstAttempts(deps, armed);
  return armed.length;
}

/** A job that will still run: waiting, delayed, active, or waiting on children. */
const ALIVE: ReadonlySet<JobState | 'unknown'> = new Set<JobState | 'unknown'>([
  'waiting',
  'delayed',
  'active',
  'prioritized',
  'waiting-children',
]);

export interface RelayResult {
  /** Overdue pending deliveries looked at. */
  overdue: number;
  /** Of those, re-armed with a new job because theirs was missing, failed or completed. */
  rearmed: number;
}

/**
 * The relay sweep: pending deliveries more than `overdueMs` past due, oldest first, in batches of `batch` (at most
 * `maxBatches` per run). A delivery whose job is still alive (a backlog) is left alone; one whose job is gone is
 * re-armed under a new job_seq, so even a failed job that still exists under the old id is replaced.
 */
export async function relayOverdueDeliveries(
  deps: Deps,
  overdueMs: number,
  batch: number,
  maxBatches: number,
): Promise<RelayResult> {
  // A job may still be alive in a partition of an earlier WEBHOOK_PARTITIONS, being drained (partition-registry.ts).
  const retired = (await retiredPartitions(deps)).map((p) => deps.queues.deliveryQueueOf(p));
  const result: RelayResult = { overdue: 0, rearmed: 0 };
  let after: { dueAt: Date; id: string } | undefined;
  for (let i = 0; i < maxBatches; i++) {
    const rows = await findOverdueDeliveries(deps.db, overdueMs, batch, after);
    if (rows.length === 0) break;
    const alive = await Promise.all(rows.map((r) => jobAlive(deps, r, retired)));
    const gone = rows.filter((_r, j) => !alive[j]);
    const rearmed = await bumpDeliveryJobSeqs(deps.db, gone);
    await enqueueDeliveryJobs(deps, rearmed);
    result.overdue += rows.length;
    result.rearmed += rearmed.length;
    const last = rows[rows.length - 1]!;
    after = { dueAt: last.next_attempt_at, id: last.id };
    if (rows.length < batch) break;
  }
  return result;
}

/** Whether the job a delivery row names will still run: in its partition, or in a retired one. */
async function jobAlive(deps: Deps, row: JobRef, retired: Queue[]): Promise<boolean> {
  const id = deliveryJobId(row);
  const own = deps.queues.deliveryPartitions[deliveryPartitionOf(row, deps.config.webhooks.partitions)]!;
  for (const queue of [own, ...retired]) {
    if (ALIVE.has(await queue.getJobState(id))) return true;
  }
  return false;
}
