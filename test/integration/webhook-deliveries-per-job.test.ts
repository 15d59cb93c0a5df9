import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { transactWithEvents } from '../../src/events/emit.js';
import { tracingState } from '../../src/platform/tracing.js';
import { deliveryJobId } from '../../src/delivery/schedule.js';
import { deliveryIdsOf } from '../helpers/delivery-jobs.js';
import { client, signupAccount } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Deliveries per job (docs/adr/0080-deliveries-per-job.md), through real workers, queues and receivers: the first
// attempts of deliveries scheduled together share a deliver-webhooks job of `deliveriesPerJob` at most, whose
// data is ids only; each is attempted and recorded as its own job would; a delivery its throttle holds back, and
// every ordered one, waits in a deliver-webhook job under its own id.

let t: TestContext;
let r: Receiver;

beforeAll(async () => {
  t = await createTestContext(
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    {
      tune: (config) => {
        config.webhooks.deliveriesPerJob = 3;
        config.webhooks.armWindowMs = 50;
      },
    },
  );
  r = await startReceiver();
});
afterAll(async () => {
  await r?.close();
  await t?.close();
});

/** A new account subscribed to contact.updated at the receiver, with the settings given. */
async function subscribed(body: Record<string, unknown> = {}): Promise<string> {
  const api = client(t.url);
  const { token, accountId } = await signupAccount(api);
  const res = await api.post('/v1/webhooks', { token, body: { url: r.url, events: ['contact.updated'], ...body } });
  expect(res.status).toBe(201);
  return accountId;
}

/** `n` events committed in one transaction; their deliveries' ids, in the order the events were made. */
async function emitTogether(accountId: string, n: number): Promise<string[]> {
  const events: string[] = [];
  await transactWithEvents(t.deps, accountId, async (_trx, emit) => {
    for (let i = 0; i < n; i++) events.push(await emit({ type: 'contact.updated', payload: { id: `c_${i}` } }));
  });
  const rows = await t.deps.db('webhook_deliveries').whereIn('event_id', events).select('id', 'event_id');
  return events.map((e) => rows.find((d) => d.event_id === e)!.id as string);
}

/** `n` one-event transactions at once; their deliveries' ids. */
async function commitApart(accountId: string, n: number): Promise<string[]> {
  const events = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      transactWithEvents(t.deps, accountId, (_trx, emit) =>
        emit({ type: 'contact.updated', payload: { id: `c_${i}` } }),
      ),
    ),
  );
  const rows = await t.deps.db('webhook_deliveries').whereIn('event_id', events).select('id');
  return rows.map((d) => d.id as string);
}

/** The jobs still to run that hold any of these deliveries. */
async function jobsHolding(ids: string[]): Promise<Job[]> {
  // The commits' advances to the queue done: their callers were answered before.
  await t.deps.background.settled();
  const all = await t.deps.queues['webhook-delivery'].getJobs(['waiting', 'delayed', 'prioritized']);
  return all.filter((job) => deliveryIdsOf(job).some((id) => ids.includes(id)));
}

const statusOf = async (ids: string[]) =>
  (await t.deps.db('webhook_deliveries').whereIn('id', ids).select('status')).map((d) => d.status as string);

describe('deliveries per job', () => {
  it('gives the first attempts of a transaction jobs of three at most, each attempted and recorded alone', async () => {
    const accountId = await subscribed();
    const ids = await emitTogether(accountId, 7);

    // Armed at commit: 3 + 3 in shared jobs, the seventh alone, the data ids and job numbers only.
    const jobs = await jobsHolding(ids);
    const shared = jobs.filter((j) => j.name.startsWith('deliver-webhooks '));
    expect(shared.map((j) => j.data.deliveries.length)).toEqual([3, 3]);
    for (const j of shared) {
      expect(Object.keys(j.data).sort()).toEqual(['deliveries']);
      for (const d of j.data.deliveries) expect(Object.keys(d).sort()).toEqual(['deliveryId', 'seq']);
      expect(j.name).toMatch(/^deliver-webhooks 3 deliveries, first contact\.updated → wh_/);
    }
    const alone = jobs.filter((j) => j.name.startsWith('deliver-webhook '));
    expect(alone.map((j) => j.id)).toEqual([deliveryJobId({ id: ids[6]!, job_seq: 1 })]);

    const workers = await t.startWorkers();
    try {
      await waitUntil(async () => (await statusOf(ids)).every((s) => s === 'succeeded'), 30_000, 'all succeeded');
    } finally {
      await workers.close();
    }
    const arrived = r.received.filter((q) => ids.includes(q.body.id));
    expect(arrived.map((q) => q.body.id).sort()).toEqual([...ids].sort());
    const attempts = await t.deps.db('webhook_attempts').whereIn('delivery_id', ids).select('delivery_id');
    expect(attempts.map((a) => a.delivery_id).sort()).toEqual([...ids].sort());
    // Each shared job reports every delivery it made.
    const done = await Promise.all(shared.map((j) => t.deps.queues['webhook-delivery'].getJob(j.id!)));
    for (const j of done) {
      expect(j!.returnvalue.outcome).toBe('3 succeeded');
      expect(Object.keys(j!.returnvalue.outcomes).sort()).toEqual(
        j!.data.deliveries.map((d: { deliveryId: string }) => d.deliveryId).sort(),
      );
      expect(Object.values(j!.returnvalue.outcomes)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    }
  });

  it('moves a delivery its throttle holds back to a delayed job of its own, under the id its row names', async () => {
    const accountId = await subscribed({ rateLimitPerSecond: 1 });
    const ids = await emitTogether(accountId, 3);
    const [group] = await jobsHolding(ids);
    expect(group!.data.deliveries).toHaveLength(3);

    const workers = await t.startWorkers();
    try {
      // One slot now; the other two wait a second and two for theirs, as deliver-webhook jobs.
      const finished = await waitUntil(async () => {
        const job = await t.deps.queues['webhook-delivery'].getJob(group!.id!);
        return job?.returnvalue?.outcomes as Record<string, string> | undefined;
      });
      expect(Object.values(finished).sort()).toEqual(['held for its slot', 'held for its slot', 'succeeded']);
      expect((await t.deps.queues['webhook-delivery'].getJob(group!.id!))!.returnvalue.outcome).toBe(
        '2 held for its slot, 1 succeeded',
      );
      const heldIds = ids.filter((id) => finished[id] === 'held for its slot');
      const waiting = await jobsHolding(heldIds);
      expect(waiting.map((j) => j.id).sort()).toEqual(heldIds.map((id) => deliveryJobId({ id, job_seq: 1 })).sort());
      await waitUntil(async () => (await statusOf(ids)).every((s) => s === 'succeeded'), 30_000, 'all succeeded');
    } finally {
      await workers.close();
    }
    expect(r.received.filter((q) => ids.includes(q.body.id))).toHaveLength(3);
  });

  it('lets the deliveries of commits that finish close together share jobs too', async () => {
    // Six one-event transactions at once: the first's add waits the window (50 ms here) for the others.
    const jobs = await jobsHolding(await commitApart(await subscribed(), 6));
    expect(jobs.length).toBeLessThan(6);
    expect(jobs.some((j) => j.name.startsWith('deliver-webhooks '))).toBe(true);
  });

  it('shares jobs the same way while traces are on, each delivery keeping the trace it was scheduled in', async () => {
    const accountId = await subscribed();
    // No SDK is loaded here, so the spans are no-ops: the flag alone must not change how jobs are shared.
    tracingState.on = true;
    const ids = await commitApart(accountId, 6).finally(() => (tracingState.on = false));
    const jobs = await jobsHolding(ids);
    expect(jobs.length).toBeLessThan(6);
    expect(jobs.some((j) => j.name.startsWith('deliver-webhooks '))).toBe(true);

    // Two commits' deliveries in one shared job: each carries its own commit's traceparent, not the first one's.
    const traced = ['a', 'b'].map((c) => ({
      id: randomUUID(),
      job_seq: 1,
      webhook_id: 'wh_traced',
      event: 'contact.updated',
      traceparent: `00-${c.repeat(32)}-${c.repeat(16)}-01`,
    }));
    await Promise.all(traced.map((d) => t.deps.delivery.scheduleFirstAttempts([d])));
    const shared = await t.deps.queues['webhook-delivery'].getJob(`${traced[0]!.id}.1.group`);
    expect(shared?.data.deliveries).toEqual(
      traced.map((d) => ({ deliveryId: d.id, seq: 1, traceparent: d.traceparent })),
    );
  });

  it('never shares a job between ordered deliveries: each key hands off to the next', async () => {
    const accountId = await subscribed({ ordering: 'key' });
    const ids = await emitTogether(accountId, 3);
    const jobs = await jobsHolding(ids);
    expect(jobs.map((j) => j.id).sort()).toEqual(ids.map((id) => deliveryJobId({ id, job_seq: 1 })).sort());
  });
});

describe('WEBHOOK_BATCHING=latency', () => {
  it('gives every delivery a job of its own', async () => {
    const one = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_BATCHING: 'latency' });
    const outer = t;
    t = one;
    try {
      const ids = await emitTogether(await subscribed(), 3);
      const jobs = await jobsHolding(ids);
      expect(jobs.map((j) => j.id).sort()).toEqual(ids.map((id) => deliveryJobId({ id, job_seq: 1 })).sort());
    } finally {
      t = outer;
      await one.close();
    }
  });
});
