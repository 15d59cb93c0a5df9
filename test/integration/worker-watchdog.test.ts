import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { enqueue, jobs } from '../../src/platform/queues.js';
import type { RunningWorkers } from '../../workers/index.js';
import { client, signupAccount } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// The worker watchdog (docs/adr/0081-stuck-workers.md), on real workers, queues and receivers. A worker that takes
// no job while one of its queue is ready, here one paused as a worker whose blocking connection is wedged is left,
// is replaced by a new worker, which does the job; a delayed job fallen due counts as ready. A worker busy to its
// concurrency with a job waiting is left alone, and so is the worker of a paused queue. A ready job re-added at
// every look (a scheduler upserted again, as workers/schedules.ts does when its chain looks broken) still counts.

const STUCK_AFTER_MS = 200;
let t: TestContext;
let r: Receiver;
let running: RunningWorkers;

beforeAll(async () => {
  t = await createTestContext({
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    SCHEDULE_INTERVALS_MS: `watch-workers=${STUCK_AFTER_MS}`,
    // One delivery at a time, each in a job of its own: a stalled receiver keeps the delivery worker full.
    QUEUE_CONCURRENCY: 'webhook-delivery=1',
    WEBHOOK_BATCHING: 'latency',
    WEBHOOK_TIMEOUT_MS: '60000',
  });
  // Deliveries to /stall are answered only when the receiver closes.
  r = await startReceiver((req) => (req.path === '/stall' ? { stallMs: 120_000 } : undefined));
  running = await t.startWorkers();
});
afterAll(async () => {
  await r?.close();
  await t?.close();
});

/** A new account subscribed to contact.updated at `path` of the receiver. */
async function subscribed(path: string): Promise<string> {
  const api = client(t.url);
  const { token, accountId } = await signupAccount(api);
  const res = await api.post('/v1/webhooks', { token, body: { url: `${r.url}${path}`, events: ['contact.updated'] } });
  expect(res.status).toBe(201);
  return accountId;
}

const emit = (accountId: string, id: string) =>
  transactWithEvents(t.deps, accountId, (_trx, e) => e({ type: 'contact.updated', payload: { id } }));

/** Workers replaced on `queue` so far. */
async function replaced(queue: string): Promise<number> {
  const { values } = await t.deps.metrics.workersReplaced.get();
  return values.find((v) => v.labels.queue === queue)?.value ?? 0;
}

/** The index in `running.workers` of the worker of `queue`. */
const indexOf = (queue: string) => running.workers.findIndex((w) => w.name === queue);

/**
 * Pauses the worker of `queue`, and waits for the wait for a job it had under way to end (BullMQ's drain delay, at
 * most 5 s): from then on it takes none, while it holds no job.
 */
async function stall(queue: string): Promise<Worker> {
  const worker = running.workers[indexOf(queue)]!;
  await worker.pause(true);
  await waitUntil(() => !worker.isRunning(), 30_000, `the ${queue} worker to stop taking jobs`);
  return worker;
}

describe('the worker watchdog', () => {
  it('replaces a worker that takes no job while one is ready, and the new worker makes the delivery', async () => {
    const before = r.received.length;
    const stuck = await stall('webhook-delivery');
    const accountId = await subscribed('/ok');
    await emit(accountId, 'c_ready');

    const arrived = await waitUntil(
      () => r.received.slice(before).find((req) => req.path === '/ok'),
      30_000,
      'the delivery, made by a new worker',
    );
    expect(arrived.body.payload).toEqual({ id: 'c_ready' });
    expect(await replaced('webhook-delivery')).toBe(1);
    const now = running.workers[indexOf('webhook-delivery')]!;
    expect(now).not.toBe(stuck);
    expect(now.isPaused()).toBe(false);
  });

  it('leaves a worker busy to its concurrency alone while a job of its queue waits', async () => {
    const replacedBefore = await replaced('webhook-delivery');
    const accountId = await subscribed('/stall');
    await emit(accountId, 'c_busy');
    await waitUntil(() => r.received.some((req) => req.path === '/stall'), 30_000, 'the stalled delivery');
    // The delivery worker is full with the stalled delivery; a second delivery waits behind it.
    await emit(accountId, 'c_waiting');
    await waitUntil(async () => (await t.deps.queues['webhook-delivery'].getWaitingCount()) === 1, 30_000, 'a wait');

    // The sentinel: another worker, stalled with a job waiting, is replaced; the watchdog has judged the busy one
    // at least as many times meanwhile.
    await stall('webhook-fanout');
    await enqueue(t.deps.queues, t.deps.config, jobs.fanOutEvent, { eventId: 'evt_none' });
    await waitUntil(async () => (await replaced('webhook-fanout')) === 1, 30_000, 'the fan-out worker replaced');

    expect(await replaced('webhook-delivery')).toBe(replacedBefore);
    expect(await t.deps.queues['webhook-delivery'].getWaitingCount()).toBe(1);
  });

  it('counts a delayed job fallen due as ready, and never judges a paused queue', async () => {
    const paused = t.deps.queues['agent-runs'];
    await Promise.all([stall('message-send'), stall('agent-runs')]);
    // A queue paused on purpose (bull-board can) keeps its job waiting: its worker is not stuck.
    await paused.pause();
    await enqueue(t.deps.queues, t.deps.config, jobs.runAgent, { runId: 'run_none' });
    // A delayed job is promoted by a worker taking jobs: a stuck one leaves it delayed, due, and it counts.
    await enqueue(t.deps.queues, t.deps.config, jobs.sendMessage, { messageId: 'msg_none' }, { delay: 1 });
    await waitUntil(async () => (await replaced('message-send')) === 1, 30_000, 'the message worker replaced');

    expect(await replaced('agent-runs')).toBe(0);
    await paused.resume();
  });

  it('replaces a stuck worker whose ready job is re-added at every look (a scheduler upserted again)', async () => {
    const maintenance = t.deps.queues.maintenance;
    await stall('maintenance');
    const upsert = () =>
      maintenance.upsertJobScheduler(
        'watchdog-test',
        { every: 60_000 },
        { name: jobs.sweepExpiredSessions.name, data: {}, opts: jobs.sweepExpiredSessions.options(t.deps.config) },
      );
    // Each upsert replaces the waiting run with a new job of the same id: the job is never older than a look.
    await waitUntil(
      async () => {
        await upsert();
        return (await replaced('maintenance')) === 1;
      },
      30_000,
      'the maintenance worker replaced',
    );
    // The new worker takes the run: a job of the scheduler completes.
    await waitUntil(async () => (await maintenance.getCompletedCount()) > 0, 30_000, 'the run, by the new worker');
    await maintenance.removeJobScheduler('watchdog-test');
  });
});
