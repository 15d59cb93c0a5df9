import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import type { EventType } from '../../src/events/event-types.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Filters on what a subscription receives (docs/webhook-filters.md): set, changed, removed and shown through the
// API; an event the filter rejects gets no delivery at all, which is seen by waiting for a later event that does
// match (a sentinel) and then reading the subscription's deliveries. What each operator means is tested on the
// evaluator itself (webhook-filter-evaluator.test.ts).

let t: TestContext;
let api: Client;
let workers: Awaited<ReturnType<TestContext['startWorkers']>>;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  api = client(t.url);
  workers = await t.startWorkers();
});
afterAll(async () => {
  await workers?.close();
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
});

async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

const emit = (accountId: string, type: EventType, payload: Record<string, unknown>) =>
  transactWithEvents(t.deps, accountId, (_trx, e) => e({ type, payload }));

const deliveriesOf = async (token: string, id: string) =>
  (await api.get(`/v1/webhooks/${id}/deliveries?limit=100`, { token })).body.data as Array<{ eventId: string }>;

const message = (id: string, fields: Record<string, unknown>) => ({
  id,
  conversationId: `conv_${id}`,
  channel: 'email',
  direction: 'inbound',
  subject: null,
  ...fields,
});

describe('a subscription with a filter', () => {
  it('gets deliveries of the events it matches only; a rejected event has no delivery row', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    const filter = {
      channel: { $in: ['sms', 'email'] },
      $or: [{ subject: { $startsWith: 'Order' } }, { $and: [{ direction: 'outbound' }, { $not: { to: null } }] }],
    };
    const created = await api.post('/v1/webhooks', {
      token,
      body: { url: `${r.url}/filtered`, events: ['message.received', 'message.sent'], filter },
    });
    expect(created.status).toBe(201);
    expect(created.body.filter).toEqual(filter);
    const filtered = created.body.id as string;
    expect((await api.get(`/v1/webhooks/${filtered}`, { token })).body.filter).toEqual(filter);
    expect((await api.get('/v1/webhooks', { token })).body.data[0].filter).toEqual(filter);
    // The same filter on an ordered subscription: its deliveries come from the fan-out's keyed statement.
    const ordered = (
      await api.post('/v1/webhooks', {
        token,
        body: { url: `${r.url}/ordered`, events: ['message.received'], filter, ordering: 'key' },
      })
    ).body.id as string;
    const plain = (
      await api.post('/v1/webhooks', { token, body: { url: `${r.url}/plain`, events: ['message.received'] } })
    ).body.id as string;
    expect((await api.get(`/v1/webhooks/${plain}`, { token })).body.filter).toBeNull();

    const rejected = [
      await emit(accountId, 'message.received', message('m1', { channel: 'chat', subject: 'Order 1' })),
      await emit(accountId, 'message.received', message('m2', { subject: 'Hello' })),
      await emit(accountId, 'message.received', message('m3', { direction: 'outbound', to: null })),
      await emit(accountId, 'message.received', message('m4', {})),
    ];
    const matched = [
      await emit(accountId, 'message.received', message('m5', { channel: 'sms', subject: 'Order 5' })),
      await emit(accountId, 'message.received', message('m6', { direction: 'outbound', to: 'a@example.com' })),
    ];
    // The sentinel: the last event, matched. Once it arrived on both filtered subscriptions, every earlier event
    // has had its fan-out (each committed before it).
    const sentinel = await emit(accountId, 'message.received', message('m7', { subject: 'Order 7' }));
    await r.waitFor(3 + 3 + 7);
    const arrived = (path: string) =>
      r.received
        .filter((x) => x.path === path)
        .map((x) => x.body.payload.id as string)
        .sort();
    expect(arrived('/filtered')).toEqual(['m5', 'm6', 'm7']);
    expect(arrived('/ordered')).toEqual(['m5', 'm6', 'm7']);
    expect(arrived('/plain')).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7']);
    for (const id of [filtered, ordered]) {
      const events = (await deliveriesOf(token, id)).map((d) => d.eventId).sort();
      expect(events).toEqual([...matched, sentinel].sort());
      expect(events.some((e) => rejected.includes(e))).toBe(false);
    }
    expect(await t.deps.db('webhook_deliveries').whereIn('event_id', rejected).whereNot({ webhook_id: plain })).toEqual(
      [],
    );
  });

  it('still gets its test event (POST /v1/webhooks/:id/test), which no filter stops', async () => {
    const { token } = await signupAccount(api);
    const r = await receiver();
    const id = (
      await api.post('/v1/webhooks', {
        token,
        body: { url: `${r.url}/t`, events: ['message.received'], filter: { channel: 'sms' } },
      })
    ).body.id;
    expect((await api.post(`/v1/webhooks/${id}/test`, { token, body: {} })).status).toBe(202);
    const [got] = await r.waitFor(1);
    expect(got!.body.event).toBe('webhook.test');
  });

  it('is changed by PATCH, and PATCH filter: null removes it', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    const id = (
      await api.post('/v1/webhooks', {
        token,
        body: { url: `${r.url}/p`, events: ['contact.created'], filter: { 'metadata.tags': 'vip' } },
      })
    ).body.id as string;
    // metadata is a free-form object: any path beneath it is accepted; an array matches by any element.
    await emit(accountId, 'contact.created', { id: 'ct_1', metadata: { tags: ['new', 'vip'] } });
    await emit(accountId, 'contact.created', { id: 'ct_2', metadata: { tags: ['new'] } });
    await emit(accountId, 'contact.created', { id: 'ct_3', metadata: {} });

    const changed = await api.patch(`/v1/webhooks/${id}`, { token, body: { filter: { email: { $exists: true } } } });
    expect(changed.status).toBe(200);
    expect(changed.body.filter).toEqual({ email: { $exists: true } });
    await emit(accountId, 'contact.created', { id: 'ct_4', email: null, metadata: { tags: ['vip'] } });
    await emit(accountId, 'contact.created', { id: 'ct_5', email: 'a@example.com', metadata: {} });

    const removed = await api.patch(`/v1/webhooks/${id}`, { token, body: { filter: null } });
    expect(removed.status).toBe(200);
    expect(removed.body.filter).toBeNull();
    expect((await api.get(`/v1/webhooks/${id}`, { token })).body.filter).toBeNull();
    await emit(accountId, 'contact.created', { id: 'ct_6', metadata: {} });

    // ct_6 is the sentinel: once it is committed, so is every earlier event's fan-out, and the rows are final.
    expect(await deliveriesOf(token, id)).toHaveLength(3);
    await r.waitFor(3);
    expect(r.received.map((x) => x.body.payload.id).sort()).toEqual(['ct_1', 'ct_5', 'ct_6']);
  });
});

describe('an invalid filter', () => {
  const url = 'https://example.com/hooks';

  // [what it shows, events, filter, the field named, a word of the message]
  const BAD: Array<[string, string[], unknown, string, string]> = [
    ['a path no subscribed type has', ['message.received'], { amount: 1 }, 'filter.amount', 'none of'],
    [
      'a nested path no subscribed type has',
      ['message.received', 'inbox.created'],
      { 'channel.x': 'a' },
      'filter.channel.x',
      'none of',
    ],
    [
      '$gt with a number on a string field',
      ['message.received'],
      { subject: { $gt: 3 } },
      'filter.subject.$gt',
      'string',
    ],
    [
      '$startsWith on a number field',
      ['billing.credits_low'],
      { creditsBalance: { $startsWith: '1' } },
      'filter.creditsBalance.$startsWith',
      'number',
    ],
    [
      'a string for a number field',
      ['billing.credits_low'],
      { creditsBalance: '5' },
      'filter.creditsBalance',
      'number',
    ],
    ['a value for an object field', ['contact.created'], { metadata: 'x' }, 'filter.metadata', 'object'],
    [
      'an unknown operator',
      ['message.received'],
      { channel: { $regex: 'sm' } },
      'filter.channel.$regex',
      'unknown operator',
    ],
    [
      'an unknown logical operator',
      ['message.received'],
      { $nor: [{ channel: 'sms' }] },
      'filter.$nor',
      'unknown operator',
    ],
    ['an operand of the wrong shape', ['message.received'], { channel: { $in: 'sms' } }, 'filter.channel.$in', 'list'],
    [
      '$exists of a string',
      ['message.received'],
      { channel: { $exists: 'yes' } },
      'filter.channel.$exists',
      'true or false',
    ],
    [
      'a nested object instead of a dotted path',
      ['contact.created'],
      { metadata: { tier: 'gold' } },
      'filter.metadata',
      'dotted path',
    ],
    ['a list as a value', ['message.received'], { channel: ['sms'] }, 'filter.channel', '$in'],
    ['an empty filter', ['message.received'], {}, 'filter', 'non-empty'],
    ['an empty $or', ['message.received'], { $or: [] }, 'filter.$or', 'list of 1'],
    ['a $not of a list', ['message.received'], { $not: [{ channel: 'sms' }] }, 'filter.$not', 'non-empty object'],
    ['a bad path', ['message.received'], { 'a..b': 1 }, 'filter.a..b', 'dotted segments'],
    [
      'more than 100 values in $in',
      ['message.received'],
      { channel: { $in: Array.from({ length: 101 }, (_, i) => `c${i}`) } },
      'filter.channel.$in',
      '100',
    ],
    ['more than 5 nested operators', ['message.received'], nest(6), 'filter.$not.$not.$not.$not.$not.$not', 'nested'],
    [
      'more than 50 paths and operators',
      ['message.received'],
      { $and: Array.from({ length: 51 }, () => ({ channel: 'sms' })) },
      'filter',
      '50',
    ],
    [
      'more than 4096 bytes',
      ['contact.created'],
      { 'metadata.x': { $in: Array.from({ length: 90 }, () => 'x'.repeat(50)) } },
      'filter',
      '4096',
    ],
  ];

  it.each(BAD)(
    'is a 400 naming where it is, and nothing is created or changed: %s',
    async (_what, events, filter, field, word) => {
      const { token } = await signupAccount(api);
      const created = await api.post('/v1/webhooks', { token, body: { url, events, filter } });
      expect(created.status).toBe(400);
      expect(created.body.error.code).toBe('validation_error');
      const fields = created.body.error.details.fields as Array<{ field: string; message: string }>;
      expect(fields.map((f) => f.field)).toContain(field);
      expect(fields.find((f) => f.field === field)!.message).toContain(word);
      expect((await api.get('/v1/webhooks', { token })).body.data).toEqual([]);

      const old = { 'metadata.ok': true };
      const id = (await api.post('/v1/webhooks', { token, body: { url, events: ['contact.created'], filter: old } }))
        .body.id;
      const patched = await api.patch(`/v1/webhooks/${id}`, { token, body: { events, filter } });
      expect(patched.status).toBe(400);
      expect(patched.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
      const after = (await api.get(`/v1/webhooks/${id}`, { token })).body;
      expect([after.filter, after.events]).toEqual([old, ['contact.created']]);
    },
  );

  it('is found when PATCH changes the events under it: the filter must fit the new types', async () => {
    const { token } = await signupAccount(api);
    const filter = { channel: 'sms' };
    const id = (await api.post('/v1/webhooks', { token, body: { url, events: ['message.received'], filter } })).body.id;
    const res = await api.patch(`/v1/webhooks/${id}`, { token, body: { events: ['contact.created'] } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields[0]).toMatchObject({ field: 'filter.channel' });
    expect(res.body.error.message).toContain('"channel" is in the payload of none of contact.created');
    const after = (await api.get(`/v1/webhooks/${id}`, { token })).body;
    expect([after.events, after.filter]).toEqual([['message.received'], filter]);
    // A path in one subscribed type is enough: inbox.created has channel too, contact.created has not.
    const widened = await api.patch(`/v1/webhooks/${id}`, {
      token,
      body: { events: ['message.received', 'inbox.created', 'contact.created'] },
    });
    expect(widened.status).toBe(200);
    expect(widened.body.filter).toEqual(filter);
  });

  it('is shown in the OpenAPI document as WebhookFilter', async () => {
    const doc = (await api.get('/openapi.json')).body;
    expect(doc.components.schemas.WebhookFilter.description).toContain('$startsWith');
    expect(doc.components.schemas.Webhook.properties.filter).toBeTruthy();
  });
});

function nest(depth: number): unknown {
  return depth === 0 ? { channel: 'sms' } : { $not: nest(depth - 1) };
}
