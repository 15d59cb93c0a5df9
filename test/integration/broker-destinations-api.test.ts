import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { insertWebhook } from '../../src/webhooks/webhooks.repository.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Broker subscriptions through the API with the production address rules (private targets NOT allowed): each
// kind's fields validated as a 400 naming the field with nothing written, the URL sealed and shown without its
// password, PATCH within the kind, and the address guard at create and again at connect.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;

const PASSWORD = 'hunter2-broker-password-7f3a';
const AMQP = `amqp://publisher:${PASSWORD}@93.184.216.34:5672/orders`;
const NATS = `nats://publisher:${PASSWORD}@93.184.216.34:4222`;

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_RETRY_DELAYS_MS: '60000', WEBHOOK_TIMEOUT_MS: '2000' });
  api = client(t.url);
  owner = await signupAccount(api);
});
afterAll(() => t?.close());

const create = (body: Record<string, unknown>) =>
  api.post('/v1/webhooks', { token: owner.token, body: { events: ['message.received'], ...body } });
const rabbit = (extra: Record<string, unknown> = {}) =>
  create({ kind: 'rabbitmq', url: AMQP, exchange: 'events', routingKey: 'switchboard.{event}', ...extra });
const countRows = async () => Number((await t.deps.db('webhooks').count({ n: '*' }))[0]!.n);

describe('creating a broker subscription', () => {
  it('refuses each wrong field with a 400 naming it, and writes nothing', async () => {
    const before = await countRows();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'rabbitmq', url: 'https://93.184.216.34/h', exchange: 'x', routingKey: 'k' }, 'url'],
      [{ kind: 'rabbitmq', url: NATS, exchange: 'x', routingKey: 'k' }, 'url'],
      [{ kind: 'rabbitmq', url: AMQP, routingKey: 'k' }, 'exchange'],
      [{ kind: 'rabbitmq', url: AMQP, exchange: 'x' }, 'routingKey'],
      [{ kind: 'rabbitmq', url: AMQP, exchange: 'x', routingKey: 'a.{evnt}' }, 'routingKey'],
      [{ kind: 'rabbitmq', url: AMQP, exchange: 'bad name', routingKey: 'k' }, 'exchange'],
      [{ kind: 'rabbitmq', url: AMQP, exchange: 'x', routingKey: 'k', subject: 's' }, 'subject'],
      [{ kind: 'nats', url: AMQP, subject: 'a.b' }, 'url'],
      [{ kind: 'nats', url: NATS }, 'subject'],
      [{ kind: 'nats', url: NATS, subject: 'orders.>' }, 'subject'],
      [{ kind: 'nats', url: NATS, subject: 'orders..{event}' }, 'subject'],
      [{ kind: 'nats', url: `${NATS}/path`, subject: 'a' }, 'url'],
      [{ url: 'https://93.184.216.34/h', exchange: 'x' }, 'exchange'],
      [{ kind: 'kafka', url: 'kafka://93.184.216.34', subject: 'a' }, 'kind'],
      [{ kind: 'stream', url: 'https://93.184.216.34/h' }, 'kind'],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(
        res.body.error.details.fields.map((f: { field: string }) => f.field),
        JSON.stringify(body),
      ).toContain(field);
      expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    }
    expect(await countRows()).toBe(before);
  });

  it('seals the URL and shows it without the password; GET returns the kind and its fields', async () => {
    const res = await rabbit();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'rabbitmq',
      url: 'amqp://publisher@93.184.216.34:5672/orders',
      exchange: 'events',
      routingKey: 'switchboard.{event}',
      subject: null,
    });
    const got = await api.get(`/v1/webhooks/${res.body.id}`, { token: owner.token });
    expect(got.body).toMatchObject({ kind: 'rabbitmq', exchange: 'events', routingKey: 'switchboard.{event}' });
    const row = await t.deps.db('webhooks').where({ id: res.body.id }).first();
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    expect(t.deps.sealers.webhook.open(row.broker_url_sealed)).toBe(AMQP);
    const audit = await t.deps.db('audit_log').where({ target_id: res.body.id });
    expect(JSON.stringify(audit)).not.toContain(PASSWORD);

    const nats = await create({ kind: 'nats', url: NATS, subject: 'switchboard.{event}' });
    expect(nats.status).toBe(201);
    expect(nats.body).toMatchObject({
      kind: 'nats',
      url: 'nats://publisher@93.184.216.34:4222',
      subject: 'switchboard.{event}',
    });
    // A token (a user name without a password) is the credential: removed whole.
    const token = await create({ kind: 'nats', url: 'tls://s3cr3t-nats-token-value@93.184.216.34', subject: 'a.b' });
    expect(token.status).toBe(201);
    expect(token.body.url).toBe('tls://93.184.216.34');
    expect(JSON.stringify(await api.get('/v1/webhooks', { token: owner.token }))).not.toMatch(/s3cr3t|hunter2/);
  });

  it('takes the default exchange ("")', async () => {
    const res = await rabbit({ exchange: '' });
    expect(res.status).toBe(201);
    expect(res.body.exchange).toBe('');
  });

  it('refuses a private broker host unless private targets are allowed, without echoing the password', async () => {
    const res = await rabbit({ url: `amqp://publisher:${PASSWORD}@127.0.0.1:5672/` });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_webhook_url');
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    // It says how to try a broker on one's own machine, as the refusal of a private http URL does.
    expect(res.body.error.message).toContain('is not a public address');
    expect(res.body.error.message).toContain('set WEBHOOK_ALLOW_PRIVATE_TARGETS=true (never in production)');
    const nats = await create({ kind: 'nats', url: 'nats://127.0.0.1:4222', subject: 'a.b' });
    expect(nats.status).toBe(400);
    expect(nats.body.error.message).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
    const http = await create({ url: 'https://127.0.0.1/hooks' });
    expect(http.body.error.message).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
  });
});

describe('changing a broker subscription', () => {
  it("changes its own fields, refuses another kind's, and keeps the password out of every answer", async () => {
    const { body: wh } = await rabbit();
    const path = `/v1/webhooks/${wh.id}`;
    const key = await api.patch(path, { token: owner.token, body: { routingKey: 'hooks.{event}', exchange: 'other' } });
    expect(key.status).toBe(200);
    expect(key.body).toMatchObject({ routingKey: 'hooks.{event}', exchange: 'other' });
    const foreign = await api.patch(path, { token: owner.token, body: { subject: 'a.b' } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details.fields[0].field).toBe('subject');
    const scheme = await api.patch(path, { token: owner.token, body: { url: 'https://93.184.216.34/h' } });
    expect(scheme.status).toBe(400);
    expect(scheme.body.error.details.fields[0].field).toBe('url');
    const badKey = await api.patch(path, { token: owner.token, body: { routingKey: '{nope}' } });
    expect(badKey.status).toBe(400);
    expect((await api.get(path, { token: owner.token })).body.routingKey).toBe('hooks.{event}');

    const moved = `amqps://publisher:${PASSWORD}-2@93.184.216.35/`;
    const url = await api.patch(path, { token: owner.token, body: { url: moved } });
    expect(url.status).toBe(200);
    expect(url.body.url).toBe('amqps://publisher@93.184.216.35/');
    const row = await t.deps.db('webhooks').where({ id: wh.id }).first();
    expect(t.deps.sealers.webhook.open(row.broker_url_sealed)).toBe(moved);
  });

  it('refuses broker fields on an http subscription', async () => {
    const { body: wh } = await create({ url: 'https://93.184.216.34/h' });
    const res = await api.patch(`/v1/webhooks/${wh.id}`, { token: owner.token, body: { exchange: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields[0].field).toBe('exchange');
  });
});

describe('the address guard at connect time', () => {
  it('refuses a private broker address when the attempt connects, whatever the row says', async () => {
    // Written around the API (as a row created while private targets were allowed would be).
    const row = await insertWebhook(t.deps.db, owner.accountId, {
      id: `wh_guard${Date.now()}`,
      kind: 'rabbitmq',
      url: 'amqp://publisher@127.0.0.1:5672/',
      broker_url_sealed: t.deps.sealers.webhook.seal(`amqp://publisher:${PASSWORD}@127.0.0.1:5672/`),
      settings: { exchange: '', routingKey: 'k' },
      events: ['message.received'],
      description: null,
      secret_sealed: t.deps.sealers.webhook.seal('whsec_' + Buffer.alloc(32).toString('base64')),
      legacy_secret_sealed: null,
      rate_limit_per_second: null,
      tenant: null,
    });
    await t.startWorkers();
    await transactWithEvents(t.deps, owner.accountId, (_trx, emit) =>
      emit({ type: 'message.received', payload: { id: 'msg_guard' } }),
    );
    const attempt = await waitUntil(
      () => t.deps.db('webhook_attempts').where({ webhook_id: row.id }).first(),
      30_000,
      'the refused attempt',
    );
    expect(attempt).toMatchObject({ error: 'blocked_address' });
    expect(JSON.stringify(attempt)).not.toContain(PASSWORD);
  });
});
