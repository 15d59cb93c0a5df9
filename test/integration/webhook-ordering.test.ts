import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { sweepStrandedOrderingKeys } from '../../src/delivery/sweep.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Ordered delivery (docs/webhook-retries.md#ordered-delivery) through real workers and receivers: the option on the
// API, one delivery at a time per key, a failing key that holds only itself, redeliver in commit order.

let t: TestContext;
let api: Client;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await createTestContext({
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // Long enough that a held delivery is still retrying when the test releases it.
    WEBHOOK_RETRY_DELAYS_MS: '50,100,200,400,800,1600,3200',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_DISABLE_AFTER: '100',
  });
  api = client(t.url);
  await t.startWorkers();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
});

async function receiver(respond?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

/** Events of one contact each, one transaction each, in this order. */
async function emitContacts(accountId: string, ids: string[]) {
  for (const [i, id] of ids.entries())
    await transactWithEvents(t.deps, accountId, (_trx, emit) =>
      emit({ type: 'contact.updated', payload: { id, n: i } }),
    );
}

const seqOf = (r: Receiver, key?: string) =>
  r.received.filter((x) => key === undefined || x.body.payload.id === key).map((x) => x.body.payload.n as number);

describe('the ordering option', () => {
  it('is "none" by default, set on create and update, and returned', async () => {
    const { token } = await signupAccount(api);
    const plain = await api.post('/v1/webhooks', {
      token,
      body: { url: 'https://example.com/h', events: ['contact.created'] },
    });
    expect(plain.body.ordering).toBe('none');
    const ordered = await api.post('/v1/webhooks', {
      token,
      body: { url: 'https://example.com/h', events: ['contact.created', 'message.received'], ordering: 'key' },
    });
    expect(ordered.status).toBe(201);
    expect(ordered.body.ordering).toBe('key');
    expect((await api.get(`/v1/webhooks/${ordered.body.id}`, { token })).body.ordering).toBe('key');
    const patched = await api.patch(`/v1/webhooks/${plain.body.id}`, { token, body: { ordering: 'key' } });
    expect(patched.body.ordering).toBe('key');
  });

  it('is refused with 400 naming a subscribed type that has no ordering key', async () => {
    const { token } = await signupAccount(api);
    const res = await api.post('/v1/webhooks', {
      token,
      body: { url: 'https://example.com/h', events: ['contact.created', 'billing.credits_low'], ordering: 'key' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.message).toContain('billing.credits_low');
    expect(res.body.error.details.fields[0].field).toBe('ordering');

    const ok = await api.post('/v1/webhooks', {
      token,
      body: { url: 'https://example.com/h', events: ['contact.created'], ordering: 'key' },
    });
    const patch = await api.patch(`/v1/webhooks/${ok.body.id}`, {
      token,
      body: { events: ['billing.credits_exhausted'] },
    });
    expect(patch.status).toBe(400);
    expect(patch.body.error.message).toContain('billing.credits_exhausted');
  });

  it('lists each event type with its ordering key', async () => {
    const { token } = await signupAccount(api);
    const types = (await api.get('/v1/event-types', { token })).body.data as Array<Record<string, unknown>>;
    const key = (name: string) => types.find((x) => x.name === name)!.orderingKey;
    expect(key('contact.updated')).toBe('payload.id');
    expect(key('message.received')).toBe('payload.conversationId');
    expect(key('inbox.created')).toBe('payload.id');
    expect(key('billing.credits_low')).toBeNull();
  });
});

describe('ordered delivery', () => {
  it('sends one key one at a time in commit order, while a failing key holds only itself', async () => {
    const { token, accountId } = await signupAccount(api);
    // Key "stuck" fails until released; the others fail at random about one time in four.
    let release = false;
    // A key with a request open when another of its requests arrives (the answer goes out after stallMs).
    let overlap = false;
    const open = new Set<string>();
    const r = await receiver((req) => {
      const key = req.body.payload.id as string;
      if (key === 'stuck' && !release) return { status: 503 };
      if (open.has(key)) overlap = true;
      open.add(key);
      setTimeout(() => open.delete(key), 15);
      return Math.random() < 0.25 ? { status: 500, stallMs: 15 } : { stallMs: 15 };
    });
    await api.post('/v1/webhooks', { token, body: { url: r.url, events: ['contact.updated'], ordering: 'key' } });
    const keys = ['a', 'b', 'c', 'stuck'];
    await Promise.all(
      keys.map((k) =>
        emitContacts(
          accountId,
          Array.from({ length: 8 }, () => k),
        ),
      ),
    );

    // Every other key arrives whole while "stuck" is still failing (and has reached its receiver).
    await waitUntil(
      () => ['a', 'b', 'c'].every((k) => new Set(seqOf(r, k)).size === 8) && seqOf(r, 'stuck').length >= 2,
      30_000,
      'the other keys to arrive while one fails',
    );
    expect(new Set(seqOf(r, 'stuck'))).toEqual(new Set([0]));
    release = true;
    await waitUntil(() => new Set(seqOf(r, 'stuck')).size === 8, 30_000, 'the held key to drain');
    for (const k of keys) {
      const firsts = [...new Set(seqOf(r, k))];
      expect(firsts).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    }
    expect(overlap).toBe(false);
  });

  it('a redelivered delivery rejoins its key in commit order', async () => {
    const { token, accountId } = await signupAccount(api);
    let hold = true;
    const r = await receiver((req) => (req.body.payload.n >= 2 && hold ? { status: 500 } : undefined));
    const wh = (
      await api.post('/v1/webhooks', { token, body: { url: r.url, events: ['contact.updated'], ordering: 'key' } })
    ).body;
    await emitContacts(accountId, ['k', 'k', 'k', 'k']);
    // 0 and 1 arrive; 2 fails and holds 3.
    await waitUntil(() => seqOf(r).filter((n) => n === 2).length >= 2, 30_000, 'delivery 2 to fail twice');
    const rows = await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id }).orderBy('ordering_seq');
    expect(rows.map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'pending', 'pending']);
    // Redeliver 0 while 2 is in flight: it waits for 2, then goes before 3.
    const first = rows[0].id as string;
    expect((await api.post(`/v1/webhooks/${wh.id}/deliveries/${first}/redeliver`, { token })).status).toBe(202);
    const before = r.received.length;
    hold = false;
    await waitUntil(
      async () =>
        (await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id })).every((d) => d.status === 'succeeded'),
      30_000,
      'every delivery to succeed',
    );
    const after = seqOf(r).slice(before);
    expect(after.filter((n) => n !== 2)).toEqual([0, 3]);
    expect(after.indexOf(2)).toBeLessThan(after.indexOf(0));
  });

  it("stops a key's whole queue when its subscription is disabled", async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver(() => ({ status: 503 }));
    const wh = (
      await api.post('/v1/webhooks', { token, body: { url: r.url, events: ['contact.updated'], ordering: 'key' } })
    ).body;
    await emitContacts(accountId, ['k', 'k', 'k']);
    await r.waitFor(1);
    expect((await api.post(`/v1/webhooks/${wh.id}/disable`, { token })).status).toBe(200);
    const rows = await waitUntil(
      async () => {
        const all = await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id });
        return all.every((d) => d.status === 'failed') && all;
      },
      30_000,
      'the key to stop',
    );
    expect(rows).toHaveLength(3);
    // Only the head was ever sent.
    expect(new Set(seqOf(r))).toEqual(new Set([0]));
    expect(await t.deps.db('webhook_ordering_keys').where({ webhook_id: wh.id })).toEqual([]);
  });

  it('made unordered, releases what waited behind a failing delivery', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver((req) => (req.body.payload.n === 0 ? { status: 503 } : undefined));
    const wh = (
      await api.post('/v1/webhooks', { token, body: { url: r.url, events: ['contact.updated'], ordering: 'key' } })
    ).body;
    await emitContacts(accountId, ['k', 'k', 'k']);
    await r.waitFor(1);
    const patched = await api.patch(`/v1/webhooks/${wh.id}`, { token, body: { ordering: 'none' } });
    expect(patched.body.ordering).toBe('none');
    await waitUntil(() => seqOf(r).includes(1) && seqOf(r).includes(2), 30_000, 'the waiting ones to go');
    expect(await t.deps.db('webhook_ordering_keys').where({ webhook_id: wh.id })).toEqual([]);
  });

  it('the sweep hands off a key whose head ended without its advance', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    const wh = (
      await api.post('/v1/webhooks', { token, body: { url: r.url, events: ['contact.updated'], ordering: 'key' } })
    ).body;
    // As if a worker had recorded the head's success and ended before its advance, and its job were gone: the
    // head is final and held by another job number, so its job 1 does nothing, and the second delivery stays queued.
    await transactWithEvents(t.deps, accountId, async (trx, emit) => {
      await emit({ type: 'contact.updated', payload: { id: 'k', n: 0 } });
      await emit({ type: 'contact.updated', payload: { id: 'k', n: 1 } });
      await trx('webhook_deliveries')
        .where({
          webhook_id: wh.id,
          ordering_seq: trx('webhook_deliveries').where({ webhook_id: wh.id }).min('ordering_seq'),
        })
        .update({ status: 'succeeded', next_attempt_at: null, job_seq: 2 });
    });
    const queued = await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id, status: 'pending' });
    expect(queued).toHaveLength(1);
    expect(queued[0].next_attempt_at).toBeNull();
    expect(await sweepStrandedOrderingKeys(t.deps, 0, 100)).toBe(1);
    await waitUntil(() => seqOf(r).includes(1), 30_000, 'the queued delivery to go');
    expect(seqOf(r)).toEqual([1]);
  });

  it('sends a test event to an ordered subscription at once, outside its keys, while a key is held', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver((req) => (req.body.event === 'contact.updated' ? { status: 503 } : undefined));
    const wh = (
      await api.post('/v1/webhooks', {
        token,
        body: { url: r.url, events: ['contact.updated'], ordering: 'key' },
      })
    ).body;
    await emitContacts(accountId, ['held', 'held']);
    await waitUntil(() => seqOf(r, 'held').length >= 2, 30_000, 'the held key to be retried');
    expect((await api.post(`/v1/webhooks/${wh.id}/test`, { token })).status).toBe(202);
    await waitUntil(() => r.received.some((x) => x.body.event === 'webhook.test'), 30_000, 'the test event');
    // The key's second event still waits behind its first, which is still failing.
    expect(new Set(seqOf(r, 'held'))).toEqual(new Set([0]));
    const testDelivery = () => t.deps.db('webhook_deliveries').where({ webhook_id: wh.id, event: 'webhook.test' });
    await waitUntil(async () => (await testDelivery())[0]?.status === 'succeeded', 30_000, 'its record');
    expect((await testDelivery()).map((d) => [d.ordering_key, d.ordering_seq])).toEqual([[null, null]]);
  });

  it('leaves unordered subscriptions as they were: no key, sent at once', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver((req) => (req.body.payload.n === 0 ? { status: 500 } : undefined));
    const wh = (await api.post('/v1/webhooks', { token, body: { url: r.url, events: ['contact.updated'] } })).body;
    await emitContacts(accountId, ['k', 'k', 'k']);
    await waitUntil(
      () => seqOf(r).includes(1) && seqOf(r).includes(2),
      30_000,
      'the later ones to pass the failing one',
    );
    const rows = await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id });
    expect(rows.every((d) => d.ordering_key === null && d.ordering_seq === null)).toBe(true);
    expect(await t.deps.db('webhook_ordering_keys').where({ webhook_id: wh.id })).toEqual([]);
  });
});
