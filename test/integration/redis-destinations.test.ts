import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redis } from '../../src/delivery/kinds/redis.js';
import { createUrlRing } from '../../src/delivery/transports/broker-pool.js';
import type { Transport } from '../../src/delivery/transport.js';
import { redisDriver } from '../helpers/destinations/redis.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Redis Streams subscriptions with the production address rules (private targets NOT allowed): the kind's fields
// validated as a 400 naming the field with nothing written, the URL sealed and never shown with its password, a
// private host refused, PATCH within the kind; and the transport against a redis-server of the test's own, whose
// stream XADD trims to about maxLength. The behavioural table (destination-kinds.test.ts) covers the deliveries.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;

const PASSWORD = 'hunter2-redis-password-9c1e';
const URL_ = `rediss://publisher:${PASSWORD}@93.184.216.34:6380/2`;
const SHOWN = 'rediss://publisher@93.184.216.34:6380/2';

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_RETRY_DELAYS_MS: '60000', WEBHOOK_TIMEOUT_MS: '2000' });
  api = client(t.url);
  owner = await signupAccount(api);
});
afterAll(() => t?.close());

const create = (body: Record<string, unknown>) =>
  api.post('/v1/webhooks', { token: owner.token, body: { events: ['message.received'], ...body } });
const fields = { kind: 'redis', url: URL_, streamKey: 'switchboard:{event}', maxLength: 5000 };
const countRows = async () => Number((await t.deps.db('webhooks').count({ n: '*' }))[0]!.n);

describe('a redis subscription through the API', () => {
  it('refuses each wrong field with a 400 naming it, never echoing the password, and writes nothing', async () => {
    const before = await countRows();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...fields, url: `https://93.184.216.34/h` }, 'url'],
      [{ ...fields, url: `amqp://publisher:${PASSWORD}@93.184.216.34/` }, 'url'],
      [{ ...fields, url: `redis://:${PASSWORD}@93.184.216.34/db` }, 'url'],
      [{ ...fields, url: `redis://:${PASSWORD}@93.184.216.34/?password=${PASSWORD}` }, 'url'],
      [{ ...fields, streamKey: undefined }, 'streamKey'],
      [{ ...fields, streamKey: 'a:{evnt}' }, 'streamKey'],
      [{ ...fields, streamKey: 'a b' }, 'streamKey'],
      [{ ...fields, maxLength: undefined }, 'maxLength'],
      [{ ...fields, maxLength: 0 }, 'maxLength'],
      [{ ...fields, maxLength: 1.5 }, 'maxLength'],
      [{ ...fields, subject: 'a.b' }, 'subject'],
      [{ url: 'https://93.184.216.34/h', streamKey: 'k' }, 'streamKey'],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    }
    expect(await countRows()).toBe(before);
  });

  it('refuses a private host, naming the URL without its password', async () => {
    const res = await create({ ...fields, url: `redis://:${PASSWORD}@127.0.0.1:6379` });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_webhook_url');
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
  });

  it('seals the URL, shows it without the password, and changes its own fields by PATCH', async () => {
    const res = await create(fields);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'redis',
      url: SHOWN,
      streamKey: 'switchboard:{event}',
      maxLength: 5000,
      exchange: null,
      subject: null,
    });
    const row = await t.deps.db('webhooks').where({ id: res.body.id }).first();
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    expect(t.deps.sealers.webhook.open(row.broker_url_sealed)).toBe(URL_);
    const path = `/v1/webhooks/${res.body.id}`;
    const patched = await api.patch(path, { token: owner.token, body: { maxLength: 10 } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ maxLength: 10, streamKey: 'switchboard:{event}', url: SHOWN });
    const foreign = await api.patch(path, { token: owner.token, body: { routingKey: 'k' } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details.fields[0].field).toBe('routingKey');
    const list = await api.get('/v1/webhooks?limit=100', { token: owner.token });
    expect(JSON.stringify(list.body)).not.toContain(PASSWORD);
  });
});

describe('the redis transport', () => {
  const driver = redisDriver();
  let transport: Transport;
  beforeAll(async () => {
    await driver.start();
    const config = { ...t.deps.config, webhooks: { ...t.deps.config.webhooks, allowPrivateTargets: true } };
    const urls = createUrlRing(t.deps.sealers.webhook);
    transport = redis.transport({ ...t.deps, config, urls } as never);
  }, 60_000);
  afterAll(async () => {
    await transport?.close();
    await driver.stop();
  });

  const send = (url: string, maxLength: number, n: number) =>
    transport.send({
      accountId: owner.accountId,
      webhookId: 'wh_redis',
      deliveryId: `d-${n}`,
      event: 'message.received',
      attempt: 1,
      url: '',
      target: { urlSealed: t.deps.sealers.webhook.seal(url), settings: { streamKey: 'trim:{event}', maxLength } },
      headers: { 'content-type': 'application/json', 'webhook-id': `d-${n}` },
      body: JSON.stringify({ id: `d-${n}` }),
    });

  it('appends with MAXLEN ~: the stream keeps about maxLength entries, not all of them', async () => {
    const url = `redis://publisher:${driver.password}@127.0.0.1:${driver.port()}`;
    for (let n = 0; n < 20; n++) expect(await send(url, 2, n)).toMatchObject({ ok: true });
    const admin = new Redis(`redis://127.0.0.1:${driver.port()}`);
    try {
      const length = await admin.xlen('trim:message.received');
      // The server was started with stream-node-max-entries 2, so "about 2" trims to a node or two.
      expect(length).toBeLessThan(10);
      const [last] = await admin.xrevrange('trim:message.received', '+', '-', 'COUNT', 1);
      expect(last![1]).toEqual(expect.arrayContaining(['body', JSON.stringify({ id: 'd-19' }), 'webhook-id', 'd-19']));
    } finally {
      admin.disconnect();
    }
  });

  it('a wrong password is auth_failed, its message scrubbed of the password tried', async () => {
    const wrong = 'not-the-password-4d2b';
    const res = await send(`redis://publisher:${wrong}@127.0.0.1:${driver.port()}`, 10, 99);
    expect(res, JSON.stringify(res)).toMatchObject({ ok: false, error: 'auth_failed' });
    expect(JSON.stringify(res)).not.toContain(wrong);
  });
});
