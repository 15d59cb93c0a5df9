import { UnrecoverableError, Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionPrincipal } from '../../src/auth/principal.js';
import { createWorkerRedis } from '../../src/platform/redis.js';
import { deliveryJobId } from '../../src/delivery/schedule.js';
import { sweepOverdueDeliveries } from '../../src/delivery/sweep.js';
import { transactWithEvents } from '../../src/events/emit.js';
import { enableWebhook, redeliver } from '../../src/webhooks/webhooks.service.js';
import { withDeadQueue } from '../helpers/dead-queue.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { setupAccount } from '../helpers/setup-account.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Nothing due is stranded by the queue: a pending delivery's row names the job that may make its next attempt,
// and the sweep schedules again every overdue delivery whose job is gone: never added (Redis away at commit),
// failed (stalled past its limit, out of attempts while Postgres was away), removed, or lost with Redis's data.
// Workers are started per test, so the queue can be inspected before they run.

let t: TestContext;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await createTestContext({
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '50,100',
    WEBHOOK_SWEEP_AFTER_MS: '0',
  });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
});

let running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.map((w) => w.close()));
  running = [];
});
async function startWorkers(): Promise<{ close(): Promise<void> }> {
  const w = await t.startWorkers();
  running.push(w);
  return w;
}

async function setup(respond?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(respond);
  receivers.push(r);
  const owner = await setupAccount(t, { webhook: { url: r.url } });
  const wh = owner.webhook;
  const principal: SessionPrincipal = {
    type: 'session',
    accountId: owner.accountId,
    userId: owner.userId,
    sessionId: 'test',
    role: 'owner',
  };
  return { ...owner, r, wh, actor: { principal, ip: null } };
}

/** One event committed, and its deliveries' schedule done (or failed): the caller is answered before it. */
async function emit(deps: TestContext['deps'], accountId: string, id: string): Promise<string> {
  const eventId = await transactWithEvents(deps, accountId, (_trx, e) =>
    e({ type: 'message.received', payload: { id } }),
  );
  await deps.background.settled();
  return eventId;
}
const rowsOf = (webhookId: string) =>
  t.deps.db('webhook_deliveries').where({ webhook_id: webhookId }).orderBy('created_at');
const rowOfEvent = async (eventId: string) =>
  (await t.deps.db('webhook_deliveries').where({ event_id: eventId }).first())!;
const relay = () => sweepOverdueDeliveries(t.deps, 0, 100, 5);
const deliveryQueue = () => t.deps.queues['webhook-delivery'];

/** Fails the waiting job as BullMQ fails one that stalled past maxStalledCount (a rogue worker on the queue). */
async function failWaitingJobs(): Promise<void> {
  const connection = createWorkerRedis(t.deps.config.redis.url);
  const rogue = new Worker(
    'webhook-delivery',
    async () => {
      throw new UnrecoverableError('job stalled more than allowable limit');
    },
    { connection, prefix: t.deps.config.bullmqPrefix },
  );
  await waitUntil(
    async () => (await deliveryQueue().getJobCounts('waiting')).waiting === 0,
    30_000,
    'the rogue worker to take every job',
  );
  await waitUntil(
    async () => (await deliveryQueue().getJobCounts('active')).active === 0,
    30_000,
    'the rogue worker to fail them',
  );
  await rogue.close();
  connection.disconnect();
}

/** Proves nothing else arrives: a later event to the same receiver arrives alone, and every row settles. */
async function expectNothingMore(s: Awaited<ReturnType<typeof setup>>, expected: number) {
  await emit(t.deps, s.accountId, 'sentinel');
  const all = await s.r.waitFor(expected + 1);
  await waitUntil(() => all.some((x) => x.body.payload.id === 'sentinel'), 30_000, 'the sentinel');
  await waitUntil(
    async () => (await rowsOf(s.wh.id)).every((d) => d.status !== 'pending'),
    30_000,
    'every row to settle',
  );
  expect(s.r.received).toHaveLength(expected + 1);
}

describe('the sweep', () => {
  it('schedules again a delivery whose after-commit enqueue failed, and leaves one whose job is alive alone', async () => {
    const s = await setup();
    const queued = await rowOfEvent(await emit(t.deps, s.accountId, 'queued'));
    const dead = withDeadQueue(t.deps);
    const stranded = await rowOfEvent(await emit(dead.deps, s.accountId, 'stranded'));
    await dead.close();
    expect(await deliveryQueue().getJob(deliveryJobId(queued))).toBeTruthy();
    expect(await deliveryQueue().getJob(deliveryJobId(stranded))).toBeFalsy();

    expect(await relay()).toEqual({ overdue: 2, rescheduled: 1 });
    expect((await rowOfEvent(queued.event_id)).job_seq).toBe(1);
    expect((await rowOfEvent(stranded.event_id)).job_seq).toBe(2);
    expect(await deliveryQueue().getJob(`${stranded.id}.2`)).toBeTruthy();
    // A second run finds both jobs alive.
    expect(await relay()).toEqual({ overdue: 2, rescheduled: 0 });

    await startWorkers();
    const arrived = await s.r.waitFor(2);
    expect(arrived.map((a) => a.body.payload.id).sort()).toEqual(['queued', 'stranded']);
    await waitUntil(async () => (await rowsOf(s.wh.id)).every((d) => d.status === 'succeeded'));
    await expectNothingMore(s, 2);
    expect(await relay()).toEqual({ overdue: 0, rescheduled: 0 });
  });

  it("replaces a job that failed under the delivery's id, and one that vanished with Redis's data", async () => {
    const s = await setup();
    const failed = await rowOfEvent(await emit(t.deps, s.accountId, 'failed-job'));
    const vanished = await rowOfEvent(await emit(t.deps, s.accountId, 'vanished-job'));
    await deliveryQueue().remove(deliveryJobId(vanished));
    await failWaitingJobs();
    expect(await deliveryQueue().getJobState(deliveryJobId(failed))).toBe('failed');
    // Adding a job under the failed job's id would be a no-op: the sweep arms a new one instead.
    expect(await relay()).toEqual({ overdue: 2, rescheduled: 2 });

    await startWorkers();
    await s.r.waitFor(2);
    await waitUntil(async () => (await rowsOf(s.wh.id)).every((d) => d.status === 'succeeded'));
    expect((await rowsOf(s.wh.id)).map((d) => [d.attempts, d.job_seq])).toEqual([
      [1, 2],
      [1, 2],
    ]);
    await expectNothingMore(s, 2);
  });

  it('schedules again a redeliver and a recoverSince whose enqueue failed: the rows say they are due', async () => {
    let healthy = false;
    const s = await setup(() => (healthy ? { status: 200 } : { status: 500 }));
    await emit(t.deps, s.accountId, 'first');
    await emit(t.deps, s.accountId, 'second');
    const workers = await startWorkers();
    await waitUntil(
      async () => (await rowsOf(s.wh.id)).every((d) => d.status === 'exhausted'),
      30_000,
      'both deliveries to exhaust',
    );
    await workers.close();
    const [first, second] = await rowsOf(s.wh.id);

    const dead = withDeadQueue(t.deps);
    await redeliver(dead.deps, s.actor, s.wh.id, first.id);
    // recoverSince reopens the other exhausted one; the redelivered one is pending already.
    expect(
      (await enableWebhook(dead.deps, s.actor, s.wh.id, new Date(Date.now() - 60_000).toISOString())).recovered,
    ).toBe(1);
    await dead.close();
    const reopened = await rowsOf(s.wh.id);
    // Each retry armed a new job; the reopen arms one more, whose add was lost.
    expect(reopened.map((d) => [d.status, d.round_attempts, d.job_seq])).toEqual([
      ['pending', 0, first.job_seq + 1],
      ['pending', 0, second.job_seq + 1],
    ]);
    expect(await deliveryQueue().getJob(deliveryJobId(reopened[0]))).toBeFalsy();

    expect(await relay()).toEqual({ overdue: 2, rescheduled: 2 });
    healthy = true;
    await startWorkers();
    await waitUntil(
      async () => (await rowsOf(s.wh.id)).every((d) => d.status === 'succeeded'),
      30_000,
      'the reopened deliveries',
    );
    expect((await rowsOf(s.wh.id)).map((d) => d.attempts)).toEqual([4, 4]);
    const ids = new Set(s.r.received.slice(-2).map((x) => x.body.id));
    expect(ids).toEqual(new Set([first.id, second.id]));
    await expectNothingMore(s, 8);
  });

  it('settles a delivery whose last attempt could not be recorded: its job failed, the row is still due', async () => {
    const s = await setup(() => ({ status: 500 }));
    const row = await rowOfEvent(await emit(t.deps, s.accountId, 'last-try'));
    // Two attempts recorded; the third (the last of its round) ran while Postgres was away, so its job ran out of
    // attempts without recording anything.
    await t.deps.db('webhook_deliveries').where({ id: row.id }).update({ attempts: 2, round_attempts: 2 });
    await failWaitingJobs();

    expect(await relay()).toEqual({ overdue: 1, rescheduled: 1 });
    await startWorkers();
    const settled = await waitUntil(
      async () => {
        const d = await rowOfEvent(row.event_id);
        return d.status !== 'pending' && d;
      },
      30_000,
      'the delivery to settle',
    );
    expect(settled).toMatchObject({ status: 'exhausted', attempts: 3, next_attempt_at: null });
    expect((await t.deps.db('webhooks').where({ id: s.wh.id }).first()).consecutive_failures).toBe(1);
  });
});
