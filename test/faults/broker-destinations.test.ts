import { connect, type ChannelModel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { brokerMissing } from '../helpers/brokers.js';
import type { Arrived } from '../helpers/destinations/driver.js';
import { natsDriver } from '../helpers/destinations/nats.js';
import { rabbitmqDriver } from '../helpers/destinations/rabbitmq.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Broker destinations when the broker misbehaves: killed in the middle of an ordered run and started again
// (nothing lost, the key's order kept), frozen (attempts time out, other subscriptions go on), a wrong password
// (failed attempts recorded without it), an unroutable key and a missing exchange (failed attempts that say so).

const rabbit = rabbitmqDriver();
const nats = natsDriver();
const skip = brokerMissing('rabbitmq') ?? brokerMissing('nats');

let t: TestContext;
let api: Client;
let account: { token: string; accountId: string };
let http: Receiver;

beforeAll(async () => {
  if (skip) return;
  await Promise.all([rabbit.start(), nats.start()]);
  t = await createTestContext({
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // Long enough, in all, to outlast a RabbitMQ restart on a loaded machine.
    WEBHOOK_RETRY_DELAYS_MS: '200,400,800,1600,3200,6400,12800,25600,25600',
    WEBHOOK_TIMEOUT_MS: '3000',
    WEBHOOK_DISABLE_AFTER: '100',
  });
  api = client(t.url);
  account = await signupAccount(api);
  http = await startReceiver();
  await t.startWorkers();
}, 300_000);
afterAll(async () => {
  await http?.close();
  await t?.close();
  await Promise.all([rabbit.stop(), nats.stop()]);
}, 300_000);

async function subscribe(fields: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const res = await api.post('/v1/webhooks', {
    token: account.token,
    body: { ...fields, events: ['contact.updated'], ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

const emitContact = (id: string, n: number) =>
  transactWithEvents(t.deps, account.accountId, (_trx, emit) => emit({ type: 'contact.updated', payload: { id, n } }));

const attemptsOf = (webhookId: string) =>
  t.deps.db('webhook_attempts').where({ webhook_id: webhookId }).orderBy('created_at');

const failedWhileDown = (webhookId: string) =>
  waitUntil(
    async () => (await attemptsOf(webhookId)).some((a) => a.error !== null),
    30_000,
    'an attempt failing while the broker is down',
  );

/** The payload numbers in order of first arrival, duplicates (at-least-once) dropped. */
function firstArrivals(list: Arrived[]): number[] {
  const seen = new Set<string>();
  return list.filter((m) => !seen.has(m.body.id) && seen.add(m.body.id)).map((m) => m.body.payload.n as number);
}

const N = 20;
const range = (n: number) => [...Array(n).keys()];

describe.skipIf(skip !== null)('broker destinations under faults', () => {
  it('rabbitmq killed mid-run and restarted: every delivery of the key arrives, in order', async () => {
    const destination = await rabbit.destination();
    const id = await subscribe(destination.fields, { ordering: 'key' });
    for (const n of range(N)) await emitContact('c-kill', n);
    await destination.waitFor(3);
    await rabbit.broker().kill();
    const before = [...destination.arrived()];
    await failedWhileDown(id);
    await rabbit.broker().start();
    // The queue is durable and the messages persistent: what was confirmed before the kill is still there.
    const consumer: ChannelModel = await connect(rabbit.broker().url);
    const after: Arrived[] = [];
    const ch = await consumer.createChannel();
    await ch.consume(
      `${(destination.fields as { exchange: string }).exchange}-q`,
      (m) =>
        m && after.push({ headers: {}, raw: '', body: JSON.parse(m.content.toString()), address: '', messageId: '' }),
      { noAck: true },
    );
    await waitUntil(
      () => new Set([...before, ...after].map((m) => m.body.id)).size === N,
      120_000,
      `all ${N} deliveries after the restart`,
    );
    expect(firstArrivals([...before, ...after])).toEqual(range(N));
    const failed = (await attemptsOf(id)).filter((a) => a.error !== null);
    expect(failed.length).toBeGreaterThan(0);
    await consumer.close();
  }, 300_000);

  it('rabbitmq killed while publishes await their confirm: no attempt says the broker refused what it took', async () => {
    const destination = await rabbit.destination();
    const exchange = (destination.fields as { exchange: string }).exchange;
    const id = await subscribe(destination.fields);
    // Events keep coming while the broker is killed, so that publishes are in flight, awaiting their confirm.
    let emitted = 0;
    let killed = false;
    const producer = (async () => {
      while (!killed || emitted < 60) await emitContact('c-confirm', emitted++);
    })();
    await destination.waitFor(20);
    // Frozen, the broker takes the publishes into its socket and confirms none; killed then, every publish in
    // flight loses its connection while it awaits its confirm.
    rabbit.broker().freeze();
    const frozenAt = emitted;
    const inFlight = async () =>
      emitted >= frozenAt + 3 &&
      (await Promise.all(t.deps.queues.deliveryShards.map((q) => q.getActiveCount()))).some((n) => n > 0);
    await waitUntil(inFlight, 30_000, 'publishes awaiting their confirm');
    await rabbit.broker().kill();
    killed = true;
    await producer;
    const before = [...destination.arrived()];
    await failedWhileDown(id);
    await rabbit.broker().start();
    // Every delivery ends (delivered, or out of retries), then what the broker took is what its consumer had
    // before the kill and what the durable queue holds after it, read to the end.
    await waitUntil(
      async () => (await t.deps.db('webhook_deliveries').where({ webhook_id: id, status: 'pending' })).length === 0,
      180_000,
      'every delivery final',
    );
    const consumer: ChannelModel = await connect(rabbit.broker().url);
    const after: string[] = [];
    const ch = await consumer.createChannel();
    await ch.consume(`${exchange}-q`, (m) => m && after.push(JSON.parse(m.content.toString()).id), { noAck: true });
    await waitUntil(async () => (await ch.checkQueue(`${exchange}-q`)).messageCount === 0, 30_000, 'the queue read');
    await consumer.close();
    const taken = () => new Set([...before.map((m) => m.body.id as string), ...after]);

    const attempts = await attemptsOf(id);
    const failed = attempts.filter((a) => a.error !== null);
    const refusedButTaken = failed.filter((a) => a.error === 'nack' && taken().has(a.delivery_id));
    expect(refusedButTaken.map((a) => ({ delivery: a.delivery_id, error: a.error, message: a.error_message }))).toEqual(
      [],
    );
    // The broker refused nothing: a failure here is the connection's, never the broker's word.
    const codes = new Set(failed.map((a) => a.error));
    expect([...codes].filter((c) => !['connection_lost', 'connection_refused', 'timeout'].includes(c))).toEqual([]);
    // Publishes were cut off mid-confirm, and each of those says so.
    expect({ codes: [...codes], attempts: attempts.length }).toMatchObject({
      codes: expect.arrayContaining(['connection_lost']),
    });
  }, 300_000);

  it('nats killed mid-run and restarted: every delivery of the key is stored once, in order', async () => {
    const destination = await nats.destination();
    const id = await subscribe(destination.fields, { ordering: 'key' });
    for (const n of range(N)) await emitContact('c-kill-nats', n);
    await destination.waitFor(3);
    await nats.broker().kill();
    await waitUntil(
      async () => (await attemptsOf(id)).some((a) => a.error !== null),
      30_000,
      'an attempt failing while the server is down',
    );
    await nats.broker().start();
    await nats.reconnect();
    const all = await destination.waitFor(N, 120_000);
    // Nats-Msg-Id: a retry of a message the stream already holds is not stored twice.
    expect(all.map((m) => m.body.payload.n)).toEqual(range(N));
  }, 300_000);

  it('a frozen broker costs its own attempts a timeout; other subscriptions keep delivering', async () => {
    const destination = await nats.destination();
    const frozenId = await subscribe(destination.fields);
    const httpId = await subscribe({ url: `${http.url}/ok` });
    await emitContact('c-warm', 0);
    await destination.waitFor(1);
    nats.broker().freeze();
    try {
      await emitContact('c-frozen', 1);
      await http.waitFor(2, 30_000);
      const timedOut = await waitUntil(
        async () => (await attemptsOf(frozenId)).find((a) => a.error === 'timeout'),
        30_000,
        'a timed-out attempt to the frozen server',
      );
      expect(timedOut.error_message).toMatch(/within 3000 ms/);
      expect((await attemptsOf(httpId)).every((a) => a.error === null)).toBe(true);
    } finally {
      nats.broker().thaw();
    }
    // Thawed, the retry gets through (the frozen connection is dropped or answers late).
    await destination.waitFor(2, 120_000);
  }, 300_000);

  it('a wrong password fails each attempt as auth_failed, recorded without the password', async () => {
    const wrong = 'wrong-password-9c1e77d0a5';
    const amqp = await rabbit.destination();
    const natsDest = await nats.destination();
    const ids = [
      await subscribe({ ...amqp.fields, url: `amqp://sb-publisher:${wrong}@127.0.0.1:${rabbit.broker().port}/` }),
      await subscribe({ ...natsDest.fields, url: `nats://sb-publisher:${wrong}@127.0.0.1:${nats.broker().port}` }),
    ];
    await emitContact('c-auth', 0);
    for (const id of ids) {
      const failed = await waitUntil(
        async () => {
          const list = await attemptsOf(id);
          return list.length >= 2 && list;
        },
        30_000,
        'two failed attempts',
      );
      expect(
        failed.every((a) => a.error === 'auth_failed'),
        JSON.stringify(failed[0]),
      ).toBe(true);
      const text = JSON.stringify(failed);
      expect(text).not.toContain(wrong);
      const shown = await api.get(`/v1/webhooks/${id}/attempts`, { token: account.token });
      expect(JSON.stringify(shown.body)).not.toContain(wrong);
    }
    expect(amqp.arrived()).toHaveLength(0);
  }, 300_000);

  it("an unroutable key and a missing exchange fail as unroutable, and the broker's other subscriptions go on", async () => {
    const good = await rabbit.destination();
    const goodId = await subscribe(good.fields);
    const noRoute = await subscribe({ ...good.fields, routingKey: 'nobody.listens.{event}' });
    const noExchange = await subscribe({ ...good.fields, exchange: 'no-such-exchange' });
    await emitContact('c-route', 0);
    const returned = await waitUntil(() => attemptsOf(noRoute).first(), 30_000, 'the returned attempt');
    expect(returned).toMatchObject({ error: 'unroutable' });
    expect(returned.error_message).toMatch(/NO_ROUTE/);
    const missing = await waitUntil(() => attemptsOf(noExchange).first(), 30_000, 'the missing-exchange attempt');
    expect(missing).toMatchObject({ error: 'unroutable' });
    expect(missing.error_message).toMatch(/no-such-exchange/);
    await good.waitFor(1);
    await emitContact('c-route', 1);
    await good.waitFor(2);
    expect((await attemptsOf(goodId)).every((a) => a.error === null)).toBe(true);
  }, 300_000);
});
