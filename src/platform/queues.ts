import { Queue, type JobsOptions } from 'bullmq';
import { z } from 'zod';
import type { Config } from './config.js';
import { deliveryShards, shardKey, type DeliveryShard } from './shards.js';
import type { RedisClient } from './redis.js';
import { TRACEPARENT, withEnqueueSpan } from './tracing.js';

// The job catalog: every job the service runs, its queue, its payload schema and its retry policy.
// Job data carries ids only; processors reload rows and return early when the work is already done.

export const QUEUE_NAMES = ['webhook-fanout', 'webhook-delivery', 'agent-runs', 'message-send', 'maintenance'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  queue: QueueName;
  schema: S;
  options: (config: Config) => JobsOptions;
  /** Its data has `traceparent`: the enqueue's trace continues in the worker (docs/tracing.md). */
  traced?: true;
}

const defineJob = <S extends z.ZodType>(def: JobDefinition<S>) => def;

const keep = { removeOnComplete: { count: 1000, age: 24 * 3600 }, removeOnFail: { count: 5000, age: 7 * 24 * 3600 } };
const empty = z.object({}).strict();
/** The W3C traceparent of the span that enqueued the job, when traced: ids and the sampled flag, nothing else. */
const traceparent = z.string().regex(TRACEPARENT).optional();

export const jobs = {
  fanOutEvent: defineJob({
    name: 'fan-out-event',
    queue: 'webhook-fanout',
    schema: z.object({ eventId: z.string(), traceparent }).strict(),
    options: () => ({ attempts: 8, backoff: { type: 'exponential', delay: 1000 }, ...keep }),
    traced: true,
  }),
  // One attempt of one delivery by the job its row names (seq = the row's job_seq). A receiver's failure is not a
  // job failure: the next attempt is a new job scheduled by src/delivery/retry-policy.ts. BullMQ's own attempts
  // only cover this process failing (Postgres away while recording), and the sweep covers a job that ran out of
  // them. `slotRps`: the job was delayed by its subscription's throttle and holds a slot given at that rate
  // (src/delivery/throttle.ts).
  deliverWebhook: defineJob({
    name: 'deliver-webhook',
    queue: 'webhook-delivery',
    schema: z
      .object({
        deliveryId: z.string().uuid(),
        seq: z.number().int().positive(),
        slotRps: z.number().int().min(1).max(1000).optional(),
        traceparent,
      })
      .strict(),
    options: () => ({ attempts: 5, backoff: { type: 'exponential', delay: 1000 }, ...keep }),
    traced: true,
  }),
  // The first attempts of several deliveries scheduled together (up to the WEBHOOK_BATCHING profile's first attempts
  // per job), made side by side: each exactly as deliver-webhook makes it, by the job_seq `seq` names. A delivery its
  // throttle holds back, and every later attempt, is a deliver-webhook job of its own
  // (docs/adr/0080-deliveries-per-job.md).
  deliverWebhooks: defineJob({
    name: 'deliver-webhooks',
    queue: 'webhook-delivery',
    schema: z
      .object({
        deliveries: z
          // Each delivery carries the trace it was scheduled in (a shared job's deliveries come from many commits).
          .array(z.object({ deliveryId: z.string().uuid(), seq: z.number().int().positive(), traceparent }).strict())
          .min(2)
          .max(50),
        traceparent,
      })
      .strict(),
    options: () => ({ attempts: 5, backoff: { type: 'exponential', delay: 1000 }, ...keep }),
    traced: true,
  }),
  runAgent: defineJob({
    name: 'run-agent',
    queue: 'agent-runs',
    schema: z.object({ runId: z.string(), traceparent }).strict(),
    options: () => ({ attempts: 3, backoff: { type: 'exponential', delay: 2000 }, ...keep }),
    traced: true,
  }),
  sendMessage: defineJob({
    name: 'send-message',
    queue: 'message-send',
    schema: z.object({ messageId: z.string(), traceparent }).strict(),
    options: () => ({ attempts: 5, backoff: { type: 'exponential', delay: 5000 }, ...keep }),
    traced: true,
  }),
  sweepExpiredSessions: defineJob({
    name: 'sweep-expired-sessions',
    queue: 'maintenance',
    schema: empty,
    options: () => ({ attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } }),
  }),
  // Every 30 s: schedules again pending deliveries past due whose job is gone (never added, failed, lost with Redis).
  relayOutbox: defineJob({
    name: 'relay-outbox',
    queue: 'maintenance',
    schema: empty,
    options: () => ({ attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } }),
  }),
  // Every minute: marks keys past expiresAt expired, drops old secrets past their grace, warns 7 days ahead.
  sweepExpiredKeys: defineJob({
    name: 'sweep-expired-keys',
    queue: 'maintenance',
    schema: empty,
    options: () => ({ attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } }),
  }),
  // Every hour: creates day partitions ahead and drops the days past WEBHOOK_RETENTION_DAYS.
  maintainPartitions: defineJob({
    name: 'maintain-partitions',
    queue: 'maintenance',
    schema: empty,
    options: () => ({ attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } }),
  }),
  // Every minute: enqueues again runs and messages left queued without a job (the enqueue after commit failed).
  requeueStuckWork: defineJob({
    name: 'requeue-stuck-work',
    queue: 'maintenance',
    schema: empty,
    options: () => ({ attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } }),
  }),
  // Every hour: deletes endpoint-health buckets older than the longest window (src/webhooks/endpoint-stats.ts).
  pruneWebhookStats: defineJob({
    name: 'prune-webhook-stats',
    queue: 'maintenance',
    schema: empty,
    options: () => ({ attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } }),
  }),
  // Every 15 minutes: deletes Idempotency-Key records past their 24 hours (src/idempotency/).
  sweepIdempotencyKeys: defineJob({
    name: 'sweep-idempotency-keys',
    queue: 'maintenance',
    schema: empty,
    options: () => ({ attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } }),
  }),
} satisfies Record<string, JobDefinition>;

export type JobData<J extends JobDefinition> = z.infer<J['schema']>;

type BulkJob = Parameters<Queue['addBulk']>[0][number];

export type Queues = Record<QueueName, Queue> & {
  /**
   * The delivery queue's shards under WEBHOOK_SHARDS, index = shard (src/platform/shards.ts);
   * `queues['webhook-delivery']` is shard 0, with K=1 the one delivery queue.
   */
  deliveryShards: Queue[];
  /** The queue of any delivery shard, of this K or an earlier one (made at the first ask, closed with the rest). */
  deliveryQueueOf(shard: DeliveryShard): Queue;
  /** Adds jobs to a queue (to `shard` of the delivery queue) in one Redis round trip. */
  addJobs(queue: QueueName, jobs: BulkJob[], shard?: number): Promise<void>;
  close(): Promise<void>;
};

export function createQueues(
  connection: RedisClient,
  prefix: string,
  onError: (err: Error) => void,
  shards = 1,
): Queues {
  const open = (name: string, queuePrefix: string) => {
    const queue = new Queue(name, { connection, prefix: queuePrefix });
    queue.on('error', onError);
    return queue;
  };
  const delivery = deliveryShards(prefix, shards).map((p) => [shardKey(p), open(p.name, p.prefix)] as const);
  const byKey = new Map<string, Queue>(delivery);
  const queues = Object.fromEntries(
    QUEUE_NAMES.map((name) => [name, name === 'webhook-delivery' ? delivery[0]![1] : open(name, prefix)]),
  ) as Record<QueueName, Queue>;
  return Object.assign(queues, {
    deliveryShards: delivery.map(([, queue]) => queue),
    deliveryQueueOf: (p: DeliveryShard) => {
      const key = shardKey(p);
      if (!byKey.has(key)) byKey.set(key, open(p.name, p.prefix));
      return byKey.get(key)!;
    },
    addJobs: async (name: QueueName, jobs: BulkJob[], shard = 0) => {
      const queue = name === 'webhook-delivery' ? delivery[shard]![1] : queues[name];
      // One job: one script call with add; addBulk builds a pipeline even for one (docs/performance.md).
      if (jobs.length === 1) await queue.add(jobs[0]!.name, jobs[0]!.data, jobs[0]!.opts);
      else if (jobs.length > 1) await queue.addBulk(jobs);
    },
    close: async () => {
      await Promise.all(
        [...new Set([...QUEUE_NAMES.map((name) => queues[name]), ...byKey.values()])].map((q) => q.close()),
      );
    },
  });
}

/** Every queue workers consume, bull-board shows and metrics count: the delivery queue as its shards. */
export const everyQueue = (queues: Queues): Array<{ name: QueueName; queue: Queue }> =>
  QUEUE_NAMES.flatMap((name): Array<{ name: QueueName; queue: Queue }> =>
    name === 'webhook-delivery'
      ? queues.deliveryShards.map((queue) => ({ name, queue }))
      : [{ name, queue: queues[name] }],
  );

/** The one way to put work on a queue: validates the payload against the catalog. */
export async function enqueue<J extends JobDefinition>(
  queues: Queues,
  config: Config,
  job: J,
  data: JobData<J>,
  opts: JobsOptions = {},
): Promise<void> {
  await enqueueBulk(queues, config, job, [{ data, opts }]);
}

/**
 * Adds jobs in bulk. In a trace (docs/tracing.md) the adds run in a producer span whose traceparent each job
 * carries, unless the item carries the trace it was scheduled in already (addTracedJobs).
 */
export async function enqueueBulk<J extends JobDefinition>(
  queues: Queues,
  config: Config,
  job: J,
  items: Array<EnqueueItem<J>>,
): Promise<void> {
  if (!job.traced) return addTracedJobs(queues, config, job, items);
  await withEnqueueSpan(job.queue, job.name, items.length, (traceparent) =>
    addTracedJobs(
      queues,
      config,
      job,
      items.map((item) => ({ traceparent, ...item })),
    ),
  );
}

/** A job to add: its data, options, a label for bull-board, and for a delivery the shard it goes to. */
export interface EnqueueItem<J extends JobDefinition> {
  data: JobData<J>;
  opts?: JobsOptions;
  label?: string;
  shard?: number;
  /** The trace the job continues: its scheduler's producer span (withEnqueueSpan). */
  traceparent?: string;
}

/**
 * Adds jobs as they are, each with the traceparent its item carries: for work batched across callers, whose
 * producer spans were made in each caller's own context.
 */
export async function addTracedJobs<J extends JobDefinition>(
  queues: Queues,
  config: Config,
  job: J,
  items: Array<EnqueueItem<J>>,
): Promise<void> {
  const base = job.options(config);
  const byShard = new Map<number, BulkJob[]>();
  for (const { data, opts, label, shard = 0, traceparent } of items) {
    const group = byShard.get(shard) ?? byShard.set(shard, []).get(shard)!;
    group.push({
      name: jobName(job, label),
      data: job.schema.parse(traceparent ? { ...(data as object), traceparent } : data),
      opts: { ...base, ...opts },
    });
  }
  await Promise.all([...byShard].map(([shard, bulk]) => queues.addJobs(job.queue, bulk, shard)));
}

/**
 * A job's name in Redis: its catalog name, then an optional label for people reading bull-board (never data the
 * processor relies on: workers dispatch on the catalog name, `catalogNameOf`).
 */
export const jobName = (job: JobDefinition, label?: string): string => (label ? `${job.name} ${label}` : job.name);
export const catalogNameOf = (name: string): string => name.split(' ', 1)[0]!;
