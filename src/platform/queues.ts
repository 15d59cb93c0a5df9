import { Queue, type JobsOptions } from 'bullmq';
import { z } from 'zod';
import type { Config } from './config.js';
import type { Redis } from './redis.js';

// The job catalog: every job the service runs, its queue, its payload schema and its retry policy.
// Job data carries ids only; processors reload rows and return early when the work is already done.

export const QUEUE_NAMES = ['webhook-fanout', 'webhook-delivery', 'agent-runs', 'message-send', 'maintenance'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  queue: QueueName;
  schema: S;
  options: (config: Config) => JobsOptions;
}

const defineJob = <S extends z.ZodType>(def: JobDefinition<S>) => def;

const keep = { removeOnComplete: { count: 1000, age: 24 * 3600 }, removeOnFail: { count: 5000, age: 7 * 24 * 3600 } };
const empty = z.object({}).strict();

export const jobs = {
  fanOutEvent: defineJob({
    name: 'fan-out-event',
    queue: 'webhook-fanout',
    schema: z.object({ eventId: z.string() }).strict(),
    options: () => ({ attempts: 8, backoff: { type: 'exponential', delay: 1000 }, ...keep }),
  }),
  deliverWebhook: defineJob({
    name: 'deliver-webhook',
    queue: 'webhook-delivery',
    schema: z.object({ deliveryId: z.string().uuid() }).strict(),
    // One first try plus one retry per configured delay; the delays come from a custom backoff strategy.
    options: (config) => ({ attempts: config.webhooks.retryDelaysMs.length + 1, backoff: { type: 'webhook' }, ...keep }),
  }),
  runAgent: defineJob({
    name: 'run-agent',
    queue: 'agent-runs',
    schema: z.object({ runId: z.string() }).strict(),
    options: () => ({ attempts: 3, backoff: { type: 'exponential', delay: 2000 }, ...keep }),
  }),
  sendMessage: defineJob({
    name: 'send-message',
    queue: 'message-send',
    schema: z.object({ messageId: z.string() }).strict(),
    options: () => ({ attempts: 5, backoff: { type: 'exponential', delay: 5000 }, ...keep }),
  }),
  sweepExpiredSessions: defineJob({
    name: 'sweep-expired-sessions',
    queue: 'maintenance',
    schema: empty,
    options: () => ({ attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } }),
  }),
  // Every 30 s: hands events whose fan-out never got enqueued (Redis was away at commit) to the fan-out queue.
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
  // Every minute: enqueues again runs and messages left queued without a job (the enqueue after commit failed).
  requeueStuckWork: defineJob({
    name: 'requeue-stuck-work',
    queue: 'maintenance',
    schema: empty,
    options: () => ({ attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } }),
  }),
} satisfies Record<string, JobDefinition>;

export type JobData<J extends JobDefinition> = z.infer<J['schema']>;

export type Queues = Record<QueueName, Queue> & { close(): Promise<void> };

export function createQueues(connection: Redis, prefix: string, onError: (err: Error) => void): Queues {
  const entries = QUEUE_NAMES.map((name) => {
    const queue = new Queue(name, { connection, prefix });
    queue.on('error', onError);
    return [name, queue] as const;
  });
  const queues = Object.fromEntries(entries) as Record<QueueName, Queue>;
  return Object.assign(queues, {
    close: async () => {
      await Promise.all(entries.map(([, q]) => q.close()));
    },
  });
}

/** The one way to put work on a queue: validates the payload against the catalog. */
export async function enqueue<J extends JobDefinition>(
  queues: Queues,
  config: Config,
  job: J,
  data: JobData<J>,
  opts: JobsOptions = {},
): Promise<void> {
  const payload = job.schema.parse(data);
  await queues[job.queue].add(job.name, payload, { ...job.options(config), ...opts });
}

export async function enqueueBulk<J extends JobDefinition>(
  queues: Queues,
  config: Config,
  job: J,
  items: Array<{ data: JobData<J>; opts?: JobsOptions }>,
): Promise<void> {
  if (items.length === 0) return;
  const base = job.options(config);
  await queues[job.queue].addBulk(
    items.map(({ data, opts }) => ({ name: job.name, data: job.schema.parse(data), opts: { ...base, ...opts } })),
  );
}
