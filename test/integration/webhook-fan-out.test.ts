import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/outbox.js';
import type { Deps } from '../../src/platform/deps.js';
import { closeHttpClient } from '../../src/platform/http-client.js';
import { createQueues } from '../../src/platform/queues.js';
import { createApiRedis } from '../../src/platform/redis.js';
import { INLINE_FAN_OUT_MAX, relayUnsentDeliveries } from '../../src/webhooks/dispatch.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startReceiver, waitUntil, type Receiver } from '../helpers/receiver.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Fan-out at commit: an event and its delivery rows are written by the emitting transaction; after commit the
// request adds the delivery jobs (or one fan-out job for a large fan-out), and the relay sweep adds the jobs of
// rows that missed that hand-off. Workers are started per test, so the queue can be inspected before they run.

let t: TestContext;
let api: Client;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_DELAYS_MS: '50' });
  api = client(t.url);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
  await closeHttpClient();
});

async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

async function subscribe(token: string, url: string, events: string[] = ['message.received']) {
  const res = await api.post('/v1/webhooks', { token, body: { url, events } });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

/** Deps whose queues point at a Redis that is not there: the after-commit hand-off fails. */
function withDeadQueue(): { deps: Deps; close(): Promise<void> } {
  const dead = createApiRedis('redis://127.0.0.1:1', { retryStrategy: () => null });
  dead.on('error', () => undefined);
  const queues = createQueues(dead, t.deps.config.bullmqPrefix, () => undefined);
  return {
    deps: { ...t.deps, queues },
    close: async () => {
      await queues.close().catch(() => undefined);
      dead.disconnect();
    },
  };
}

const deliveriesOf = (accountId: string) => t.deps.db('webhook_deliveries').where({ account_id: accountId }).orderBy('created_at');
const jobCounts = () => t.deps.queues['webhook-delivery'].getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed');

describe('fan-out at commit', () => {
  it('writes one delivery per active subscription that wants the event, in the emitting transaction', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    const wants = await subscribe(token, `${r.url}/wants`);
    await subscribe(token, `${r.url}/other-event`, ['inbox.created']);
    const disabled = await subscribe(token, `${r.url}/disabled`);
    await t.deps.db('webhooks').where({ id: disabled.id }).update({ status: 'disabled' });
    const deleted = await subscribe(token, `${r.url}/deleted`);
    expect((await api.delete(`/v1/webhooks/${deleted.id}`, { token })).status).toBe(204);

    // A rolled-back action leaves no event and no delivery behind.
    await expect(
      transactWithEvents(t.deps, accountId, async (_trx, emit) => {
        await emit({ type: 'message.received', payload: { id: 'rolled-back' } });
        throw new Error('the action failed after emitting');
      }),
    ).rejects.toThrow('the action failed');
    expect(await t.deps.db('events').where({ account_id: accountId })).toHaveLength(0);
    expect(await deliveriesOf(accountId)).toHaveLength(0);

    const eventId = await transactWithEvents(t.deps, accountId, (_trx, emit) => emit({ type: 'message.received', payload: { id: 'kept' } }));
    const rows = await deliveriesOf(accountId);
    expect(rows.map((d) => [d.webhook_id, d.event_id, d.status])).toEqual([[wants.id, eventId, 'pending']]);
    // Its job was added after commit under the delivery id (the envelope id).
    expect(await t.deps.queues['webhook-delivery'].getJob(rows[0].id)).toBeTruthy();

    const workers = await t.startWorkers();
    const [got] = await r.waitFor(1);
    expect(got!.path).toBe('/wants');
    expect(got!.body).toMatchObject({ id: rows[0].id, event: 'message.received', payload: { id: 'kept' } });
    await waitUntil(async () => (await deliveriesOf(accountId))[0].status === 'succeeded');
    await workers.close();
    expect(r.received).toHaveLength(1);
  });

  it(`sends an event with more than ${INLINE_FAN_OUT_MAX} subscriptions through one fan-out job`, async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    const count = INLINE_FAN_OUT_MAX + 5;
    for (let i = 0; i < count; i++) await subscribe(token, `${r.url}/s${i}`);
    const eventId = await transactWithEvents(t.deps, accountId, (_trx, emit) => emit({ type: 'message.received', payload: { id: 'wide' } }));

    const workers = await t.startWorkers();
    const arrived = await r.waitFor(count, 15_000);
    expect(new Set(arrived.map((a) => a.path)).size).toBe(count);
    const ids = (await deliveriesOf(accountId)).map((d) => d.id).sort();
    expect(arrived.map((a) => a.body.id).sort()).toEqual(ids);
    const fanOutJob = await t.deps.queues['webhook-fanout'].getJob(eventId);
    expect(fanOutJob?.returnvalue).toEqual({ deliveries: count });
    await waitUntil(async () => (await deliveriesOf(accountId)).every((d) => d.status === 'succeeded'));
    await workers.close();
  });
});

describe('the relay sweep', () => {
  it('adds the jobs of deliveries whose hand-off failed, and never a second job for one that has its own', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    await subscribe(token, r.url);
    const queued = await transactWithEvents(t.deps, accountId, (_trx, emit) => emit({ type: 'message.received', payload: { id: 'queued' } }));
    const dead = withDeadQueue();
    const stranded = await transactWithEvents(dead.deps, accountId, (_trx, emit) => emit({ type: 'message.received', payload: { id: 'stranded' } }));
    await dead.close();
    expect(queued).not.toBe(stranded);
    const [q, s] = await deliveriesOf(accountId);
    const delivery = t.deps.queues['webhook-delivery'];
    expect(await delivery.getJob(q.id)).toBeTruthy();
    expect(await delivery.getJob(s.id)).toBeFalsy();

    // Too young: the sweep leaves rows alone while their after-commit hand-off may still be under way.
    expect(await relayUnsentDeliveries(t.deps, new Date(Date.now() - 60_000), 100, 5)).toBe(0);
    await new Promise((res) => setTimeout(res, 50));
    // Batches of one: the sweep pages through both rows; re-adding the queued one is a no-op.
    expect(await relayUnsentDeliveries(t.deps, new Date(), 1, 5)).toBe(2);
    expect((await jobCounts()).waiting).toBe(2);
    expect(await delivery.getJob(s.id)).toBeTruthy();

    const workers = await t.startWorkers();
    const arrived = await r.waitFor(2);
    expect(arrived.map((a) => a.body.payload.id).sort()).toEqual(['queued', 'stranded']);
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(2);
    await waitUntil(async () => (await deliveriesOf(accountId)).every((d) => d.status === 'succeeded'));
    // Delivered rows are no longer unsent.
    expect(await relayUnsentDeliveries(t.deps, new Date(), 100, 5)).toBe(0);
    expect((await jobCounts()).waiting).toBe(0);
    await workers.close();
  });

  it('leaves a recovered delivery to its own round job, even one that never had an attempt', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    const wh = await subscribe(token, r.url);
    await transactWithEvents(t.deps, accountId, (_trx, emit) => emit({ type: 'message.received', payload: { id: 'paused' } }));
    // Disabled before its first attempt: the worker stops the delivery without sending it (failed, no attempt).
    await t.deps.db('webhooks').where({ id: wh.id }).update({ status: 'disabled' });
    const first = await t.startWorkers();
    await waitUntil(async () => (await deliveriesOf(accountId))[0].status === 'failed');
    await first.close();
    expect(r.received).toHaveLength(0);
    expect((await deliveriesOf(accountId))[0].attempts).toBe(0);

    const enabled = await api.post(`/v1/webhooks/${wh.id}/enable`, { token, body: { recoverSince: new Date(Date.now() - 60_000).toISOString() } });
    expect(enabled.body.recovered).toBe(1);
    // Pending again with no attempt, but it was touched after the insert: not the sweep's to enqueue.
    expect(await relayUnsentDeliveries(t.deps, new Date(), 100, 5)).toBe(0);

    const second = await t.startWorkers();
    const [got] = await r.waitFor(1);
    expect(got!.body.payload).toEqual({ id: 'paused' });
    await waitUntil(async () => (await deliveriesOf(accountId))[0].status === 'succeeded');
    await second.close();
    expect(r.received).toHaveLength(1);
  });
});
