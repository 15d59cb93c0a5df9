import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Per-subscription throttling (rateLimitPerSecond) with the real BullMQ workers of this process, against real
// receivers; the same across two worker processes is webhook-throttle-processes.test.ts.

let t: TestContext;
let api: Client;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  api = client(t.url);
  await t.startWorkers();
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

/** Arrivals per second between the first and the last. */
const rateOf = (ats: number[]) => (ats.length - 1) / ((ats[ats.length - 1]! - ats[0]!) / 1000);

describe('rateLimitPerSecond on create and PATCH', () => {
  it('accepts 1..1000 or null, shows it, and refuses anything else with 400 naming the field, writing nothing', async () => {
    const { token } = await signupAccount(api);
    const r = await receiver();
    for (const bad of [0, 1001, 2.5, '5', -1]) {
      const res = await api.post('/v1/webhooks', {
        token,
        body: { url: r.url, events: ['message.received'], rateLimitPerSecond: bad },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.fields.map((f: any) => f.field)).toEqual(['rateLimitPerSecond']);
    }
    expect((await api.get('/v1/webhooks', { token })).body.data).toHaveLength(0);

    const created = await api.post('/v1/webhooks', {
      token,
      body: { url: r.url, events: ['message.received'], rateLimitPerSecond: 1000 },
    });
    expect(created.status).toBe(201);
    expect(created.body.rateLimitPerSecond).toBe(1000);
    const id = created.body.id;
    expect(
      (await api.patch(`/v1/webhooks/${id}`, { token, body: { rateLimitPerSecond: 1 } })).body.rateLimitPerSecond,
    ).toBe(1);
    const refused = await api.patch(`/v1/webhooks/${id}`, {
      token,
      body: { rateLimitPerSecond: 0, description: 'half' },
    });
    expect(refused.status).toBe(400);
    expect((await api.get(`/v1/webhooks/${id}`, { token })).body).toMatchObject({
      rateLimitPerSecond: 1,
      description: null,
    });
    expect(
      (await api.patch(`/v1/webhooks/${id}`, { token, body: { rateLimitPerSecond: null } })).body.rateLimitPerSecond,
    ).toBeNull();
    const plain = await api.post('/v1/webhooks', { token, body: { url: r.url, events: ['message.received'] } });
    expect(plain.body.rateLimitPerSecond).toBeNull();
  });
});

describe('the schedule', () => {
  it('hands out one slot per interval on one timeline, and starts a new timeline when the rate changes', async () => {
    const throttle = t.deps.delivery.throttle;
    // Slots are read on Redis's clock, so the figures hold however slowly this machine makes the calls.
    const slots = await Promise.all(Array.from({ length: 5 }, () => throttle.reserve('wh_schedule', 10)));
    // The first goes at once, the others one interval (100 ms) after each other, on one timeline.
    const ats = slots.map((s) => s.atMs).sort((a, b) => a - b);
    expect(slots.filter((s) => s.waitMs === 0)).toHaveLength(1);
    ats.forEach((at, i) => expect(at - ats[0]!).toBeCloseTo(i * 100, 3));
    // At another rate the old timeline is dropped: the next slot is now, the one after it an interval (500 ms) on.
    const first = await throttle.reserve('wh_schedule', 2);
    expect(first.waitMs).toBe(0);
    expect((await throttle.reserve('wh_schedule', 2)).atMs - first.atMs).toBeCloseTo(500, 3);
    // Subscriptions have their own timelines.
    expect((await throttle.reserve('wh_other', 10)).waitMs).toBe(0);
  });
});

describe('throttled delivery', () => {
  it('delivers 50 events at 5/s to the throttled subscription, all of them, one attempt each, while the other gets its 50 at once', async () => {
    const { token, accountId } = await signupAccount(api);
    const slow = await receiver();
    const fast = await receiver();
    const throttled = await api.post('/v1/webhooks', {
      token,
      body: { url: slow.url, events: ['message.received'], rateLimitPerSecond: 5 },
    });
    await api.post('/v1/webhooks', { token, body: { url: fast.url, events: ['message.received'] } });

    await transactWithEvents(t.deps, accountId, async (_trx, emit) => {
      for (let i = 0; i < 50; i++) await emit({ type: 'message.received', payload: { id: `msg_${i}` } });
    });

    await fast.waitFor(50, 30_000);
    // The unthrottled subscription is not slowed: all 50 are in while the throttled one (5/s) has had a fraction.
    expect(slow.received.length).toBeLessThan(40);

    await slow.waitFor(50, 30_000);
    const rate = rateOf(slow.received.map((x) => x.at));
    expect(rate).toBeGreaterThanOrEqual(4);
    expect(rate).toBeLessThanOrEqual(6);
    expect(new Set(slow.received.map((x) => x.body.payload.id)).size).toBe(50);

    // Waiting used no attempt: one attempt row per delivery, each delivery succeeded at its first.
    const rows = await waitUntil(async () => {
      const d = await t.deps.db('webhook_deliveries').where({ webhook_id: throttled.body.id });
      return d.length === 50 && d.every((x) => x.status === 'succeeded') && d;
    });
    expect(rows.every((d) => d.attempts === 1 && d.job_seq === 1)).toBe(true);
    expect(await t.deps.db('webhook_attempts').where({ webhook_id: throttled.body.id })).toHaveLength(50);
  });
});
