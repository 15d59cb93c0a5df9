import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { findPendingDeliveriesOfEvent } from '../../src/delivery/sql/fan-out.js';
import { INLINE_FAN_OUT_MAX } from '../../src/delivery/schedule.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Fan-out at commit: an event and its delivery rows are written by the emitting transaction; after commit (its
// caller already answered: webhook-schedule.test.ts) the delivery jobs are added (or one fan-out job for a large
// fan-out), and the sweep adds the jobs of rows that missed that schedule (webhook-sweep.test.ts). Workers
// are started per test, so the queue can be inspected before they run.

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

const deliveriesOf = (accountId: string) =>
  t.deps.db('webhook_deliveries').where({ account_id: accountId }).orderBy('created_at');

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

    const eventId = await transactWithEvents(t.deps, accountId, (_trx, emit) =>
      emit({ type: 'message.received', payload: { id: 'kept' } }),
    );
    const rows = await deliveriesOf(accountId);
    expect(rows.map((d) => [d.webhook_id, d.event_id, d.status])).toEqual([[wants.id, eventId, 'pending']]);
    // Its job was added after commit (the caller answered before that schedule) under the delivery id (the
    // envelope id) and the job number the row holds.
    expect(rows[0].job_seq).toBe(1);
    await t.deps.background.settled();
    expect(await t.deps.queues['webhook-delivery'].getJob(`${rows[0].id}.1`)).toBeTruthy();

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
    const eventId = await transactWithEvents(t.deps, accountId, (_trx, emit) =>
      emit({ type: 'message.received', payload: { id: 'wide' } }),
    );

    const workers = await t.startWorkers();
    const arrived = await r.waitFor(count, 30_000);
    expect(new Set(arrived.map((a) => a.path)).size).toBe(count);
    const ids = (await deliveriesOf(accountId)).map((d) => d.id).sort();
    expect(arrived.map((a) => a.body.id).sort()).toEqual(ids);
    const fanOutJob = await t.deps.queues['webhook-fanout'].getJob(eventId);
    expect(fanOutJob?.returnvalue).toEqual({ deliveries: count });
    await waitUntil(async () => (await deliveriesOf(accountId)).every((d) => d.status === 'succeeded'));
    await workers.close();
  });

  it("finds an event's pending deliveries, not another event's of the same millisecond", async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    const hooks = [await subscribe(token, `${r.url}/a`), await subscribe(token, `${r.url}/b`)];
    const [first, second] = await transactWithEvents(t.deps, accountId, async (_trx, emit) => [
      await emit({ type: 'message.received', payload: { id: 'first' } }),
      await emit({ type: 'message.received', payload: { id: 'second' } }),
    ]);
    // One transaction's events share its clock (now()), so the two events and their deliveries share a millisecond.
    const rows = await deliveriesOf(accountId);
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((d) => d.created_at.getTime())).size).toBe(1);
    const ofFirst = rows.filter((d) => d.event_id === first).map((d) => d.id);
    const found = await findPendingDeliveriesOfEvent(t.deps.db, first!);
    expect(found.map((d) => d.id)).toEqual([...ofFirst].sort());
    expect(found.map((d) => d.webhook_id).sort()).toEqual(hooks.map((h) => h.id).sort());
    // One that is no longer pending is left out.
    await t.deps.db('webhook_deliveries').where({ id: ofFirst[0] }).update({ status: 'failed', next_attempt_at: null });
    expect((await findPendingDeliveriesOfEvent(t.deps.db, first!)).map((d) => d.id)).toEqual(ofFirst.slice(1));
    expect(await findPendingDeliveriesOfEvent(t.deps.db, second!)).toHaveLength(2);
    expect(await findPendingDeliveriesOfEvent(t.deps.db, 'evt_absent')).toEqual([]);
  });
});
