import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCredential } from '../../src/http/credentials.js';
import type { Principal } from '../../src/auth/principal.js';
import { chargeCredits } from '../../src/billing/billing.service.js';
import { sweepExpiredKeys } from '../../src/keys/keys-sweep.service.js';
import { AppError } from '../../src/platform/errors.js';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, updateKeyRow } from '../helpers/keys.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Operational events: written in the transaction of the change they report, once per crossing under
// concurrency, delivered through the ordinary pipeline to real receivers, never to the subscription they are
// about, never with a secret or a hash. Retry delays 50/50 ms and auto-disable after one exhausted delivery.

let t: TestContext;
let api: Client;
const receivers: Receiver[] = [];
const OPERATIONAL = [
  'webhook.disabled',
  'webhook.delivery_exhausted',
  'api_key.expiring',
  'api_key.expired',
  'api_key.deactivated',
  'api_key.spend_cap_reached',
  'billing.credits_low',
  'billing.credits_exhausted',
];

beforeAll(async () => {
  t = await createTestContext(
    {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '50,50',
      WEBHOOK_TIMEOUT_MS: '400',
      WEBHOOK_DISABLE_AFTER: '1',
    },
    { tune: (config) => void (config.rateLimitWindowMs = 24 * 3600_000) },
  );
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

async function subscribe(token: string, url: string, events: string[]) {
  const res = await api.post('/v1/webhooks', { token, body: { url, events } });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

const principalOf = async (token: string): Promise<Principal> =>
  (await resolveCredential(t.deps, token, { ip: '127.0.0.1' })).principal;

async function charge(principal: Principal, amount: number): Promise<string> {
  try {
    await transactWithEvents(t.deps, principal.accountId, (trx, emit) =>
      chargeCredits(t.deps, trx, emit, principal, amount, 'agent.trigger'),
    );
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

const eventsOf = (accountId: string, type: string) =>
  t.deps.db('events').where({ account_id: accountId, type }).orderBy('created_at');

/** Neither the secret nor its SHA-256 appears anywhere in the account's events. */
async function expectNoSecretIn(accountId: string, secret: string) {
  const all = JSON.stringify(await t.deps.db('events').where({ account_id: accountId }).select('payload'));
  expect(all).not.toContain(secret);
  expect(all).not.toContain(createHash('sha256').update(secret).digest('hex'));
  expect(all).not.toMatch(/secret|hash/i);
}

describe('the catalog', () => {
  it('lists every operational event as emitted with its payload schema, and subscriptions accept them', async () => {
    const { token } = await signupAccount(api);
    const res = await api.get('/v1/event-types', { token });
    for (const name of OPERATIONAL) {
      const e = res.body.data.find((x: any) => x.name === name);
      expect(e, name).toMatchObject({
        status: 'emitted',
        payloadSchema: { type: 'object', additionalProperties: false },
      });
    }
    const spend = res.body.data.find((x: any) => x.name === 'api_key.spend_cap_reached');
    expect(Object.keys(spend.payloadSchema.properties)).toEqual(
      expect.arrayContaining(['keyId', 'percent', 'spendCapCredits', 'spentCredits']),
    );
    // A domain event's payload schema is its resource's, as the API returns it.
    const received = res.body.data.find((x: any) => x.name === 'message.received');
    expect(Object.keys(received.payloadSchema.properties)).toEqual(expect.arrayContaining(['id', 'from', 'channel']));
    const r = await receiver();
    await subscribe(token, r.url, OPERATIONAL);
  });
});

describe('charges crossing thresholds', () => {
  it('50 concurrent charges crossing 80% and 100% of a cap and the low-credits threshold emit one event per crossing', async () => {
    const owner = await signupAccount(api);
    const r = await receiver();
    const wh = await subscribe(owner.token, r.url, [
      'api_key.spend_cap_reached',
      'billing.credits_low',
      'billing.credits_exhausted',
    ]);
    await t.deps.db('accounts').where({ id: owner.accountId }).update({ credits_balance: 120 });
    const key = await createAccountKey(api, owner.token, { scopes: ['trigger:agents'], spendCapCredits: 50 });
    const p = await principalOf(key.key);

    const results = await Promise.all(Array.from({ length: 50 }, () => charge(p, 1)));
    expect(results.every((x) => x === 'ok')).toBe(true);

    const capEvents = await eventsOf(owner.accountId, 'api_key.spend_cap_reached');
    expect(capEvents.map((e) => e.payload.percent).sort()).toEqual([100, 80]);
    expect(capEvents.find((e) => e.payload.percent === 80)!.payload).toEqual({
      keyId: key.id,
      name: 'test key',
      keyType: 'account',
      keyPrefix: 'ca_acct_',
      agentId: null,
      expiresAt: null,
      percent: 80,
      spendCapCredits: 50,
      spentCredits: 40,
    });
    expect(capEvents.find((e) => e.payload.percent === 100)!.payload).toMatchObject({ spentCredits: 50 });
    const low = await eventsOf(owner.accountId, 'billing.credits_low');
    expect(low.map((e) => e.payload)).toEqual([{ creditsBalance: 99, lowCreditsThreshold: 100 }]);
    expect(await eventsOf(owner.accountId, 'billing.credits_exhausted')).toHaveLength(0);

    // Delivered once each, through the pipeline, to the subscription that asked.
    const got = await r.waitFor(3);
    expect(got.map((x) => x.body.event).sort()).toEqual([
      'api_key.spend_cap_reached',
      'api_key.spend_cap_reached',
      'billing.credits_low',
    ]);
    expect(got.every((x) => String(x.headers['x-switchboard-signature']).includes('v1='))).toBe(true);
    await expectNoSecretIn(owner.accountId, key.key);
    expect(JSON.stringify(got.map((x) => x.raw))).not.toContain(wh.secret);

    // A charge refused at the cap writes nothing.
    expect(await charge(p, 1)).toBe('spend_cap_exceeded');
    expect(await eventsOf(owner.accountId, 'api_key.spend_cap_reached')).toHaveLength(2);
  });

  it('reaching zero emits billing.credits_exhausted once; refused charges and a balance already below the threshold emit nothing more', async () => {
    const owner = await signupAccount(api);
    await t.deps.db('accounts').where({ id: owner.accountId }).update({ credits_balance: 30 });
    const session = await principalOf(owner.token);
    const results = await Promise.all(Array.from({ length: 50 }, () => charge(session, 1)));
    expect(results.filter((x) => x === 'ok')).toHaveLength(30);
    expect(results.filter((x) => x === 'insufficient_credits')).toHaveLength(20);
    expect((await eventsOf(owner.accountId, 'billing.credits_exhausted')).map((e) => e.payload)).toEqual([
      { creditsBalance: 0 },
    ]);
    expect(await eventsOf(owner.accountId, 'billing.credits_low')).toHaveLength(0);

    // Credits added bring it back above; the next fall below is a new crossing.
    await api.post('/v1/billing/credits', { token: owner.token, body: { amount: 101 } });
    expect(await charge(session, 1)).toBe('ok');
    expect(await charge(session, 1)).toBe('ok');
    expect((await eventsOf(owner.accountId, 'billing.credits_low')).map((e) => e.payload)).toEqual([
      { creditsBalance: 99, lowCreditsThreshold: 100 },
    ]);
  });

  it('follows lowCreditsThreshold set with PATCH /v1/account (admin only, validated); a chat over HTTP that crosses it emits, a refused one does not', async () => {
    const owner = await signupAccount(api);
    expect((await api.get('/v1/account', { token: owner.token })).body.lowCreditsThreshold).toBe(100);
    for (const bad of [-1, 1.5, '500', 2_000_000_000]) {
      const res = await api.patch('/v1/account', { token: owner.token, body: { lowCreditsThreshold: bad } });
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields[0].field).toBe('lowCreditsThreshold');
    }
    expect((await api.patch('/v1/account', { token: owner.token, body: {} })).status).toBe(400);
    const key = await createAccountKey(api, owner.token, { scopes: ['read:account', 'trigger:agents'] });
    expect((await api.patch('/v1/account', { token: key.key, body: { lowCreditsThreshold: 1 } })).status).toBe(403);
    const ok = await api.patch('/v1/account', { token: owner.token, body: { lowCreditsThreshold: 998 } });
    expect(ok.body).toMatchObject({ lowCreditsThreshold: 998, agentKeyMinting: 'admins' });
    expect((await api.get('/v1/logs', { token: owner.token })).body.data[0]).toMatchObject({
      action: 'account.updated',
      details: { lowCreditsThreshold: 998 },
    });

    const agentId = await createAgent(t, owner.accountId, 'Chatty', { autoReply: 'hi' });
    expect((await api.post(`/v1/agents/${agentId}/chat`, { token: key.key, body: { message: 'hello' } })).status).toBe(
      202,
    );
    expect((await eventsOf(owner.accountId, 'billing.credits_low')).map((e) => e.payload)).toEqual([
      { creditsBalance: 995, lowCreditsThreshold: 998 },
    ]);

    // A paused agent refuses before charging: nothing is written.
    await t.deps.db('accounts').where({ id: owner.accountId }).update({ credits_balance: 1 });
    await t.deps.db('agents').where({ id: agentId }).update({ status: 'paused' });
    expect((await api.post(`/v1/agents/${agentId}/chat`, { token: key.key, body: { message: 'hello' } })).status).toBe(
      409,
    );
    await t.deps.db('agents').where({ id: agentId }).update({ status: 'active' });
    // Too poor: 402, and the credits_exhausted it would have crossed is not written.
    expect((await api.post(`/v1/agents/${agentId}/chat`, { token: key.key, body: { message: 'hello' } })).status).toBe(
      402,
    );
    expect(await eventsOf(owner.accountId, 'billing.credits_exhausted')).toHaveLength(0);
  });
});

describe('api_key events', () => {
  it('the sweep emits api_key.expiring once (seven days ahead) and api_key.expired once; deactivation emits once; no secret or hash', async () => {
    const owner = await signupAccount(api);
    const soon = await createAccountKey(api, owner.token, {
      name: 'soon',
      expiresAt: new Date(Date.now() + 3 * 86400_000).toISOString(),
    });
    const later = await createAccountKey(api, owner.token, {
      name: 'later',
      expiresAt: new Date(Date.now() + 30 * 86400_000).toISOString(),
    });
    await sweepExpiredKeys(t.deps);
    await sweepExpiredKeys(t.deps);
    const expiring = await eventsOf(owner.accountId, 'api_key.expiring');
    expect(expiring.map((e) => e.payload)).toEqual([
      {
        keyId: soon.id,
        name: 'soon',
        keyType: 'account',
        keyPrefix: 'ca_acct_',
        agentId: null,
        expiresAt: soon.body.expiresAt,
      },
    ]);

    await updateKeyRow(t, soon.id, { expires_at: new Date(Date.now() - 1000) });
    await Promise.all([sweepExpiredKeys(t.deps), sweepExpiredKeys(t.deps)]);
    const expired = await eventsOf(owner.accountId, 'api_key.expired');
    expect(expired.map((e) => e.payload.keyId)).toEqual([soon.id]);

    const deactivations = await Promise.all(
      [1, 2, 3].map(() => api.post(`/v1/api_keys/${later.id}/deactivate`, { token: owner.token })),
    );
    expect(deactivations.every((d) => d.status === 200)).toBe(true);
    const deactivated = await eventsOf(owner.accountId, 'api_key.deactivated');
    expect(deactivated.map((e) => e.payload)).toEqual([
      {
        keyId: later.id,
        name: 'later',
        keyType: 'account',
        keyPrefix: 'ca_acct_',
        agentId: null,
        expiresAt: later.body.expiresAt,
        previousStatus: 'active',
      },
    ]);
    for (const k of [soon, later]) await expectNoSecretIn(owner.accountId, k.key);
  });
});

describe('webhook events', () => {
  it('an exhausted delivery and the disable it causes are reported to the other subscriptions, never to the failing one', async () => {
    const owner = await signupAccount(api);
    const failing = await receiver(() => ({ status: 500 }));
    const watcher = await receiver();
    const bad = await subscribe(owner.token, failing.url, [
      'agent.updated',
      'webhook.disabled',
      'webhook.delivery_exhausted',
    ]);
    const good = await subscribe(owner.token, watcher.url, ['webhook.disabled', 'webhook.delivery_exhausted']);
    const eventId = await transactWithEvents(t.deps, owner.accountId, (_trx, emit) =>
      emit({ type: 'agent.updated', payload: { id: 'agt_1' } }),
    );

    const got = await watcher.waitFor(2);
    const byEvent = Object.fromEntries(got.map((x) => [x.body.event, x.body.payload]));
    const delivery = await t.deps.db('webhook_deliveries').where({ event_id: eventId }).first();
    expect(byEvent['webhook.delivery_exhausted']).toEqual({
      webhookId: bad.id,
      url: failing.url,
      deliveryId: delivery.id,
      eventId,
      event: 'agent.updated',
      attempts: 3,
      lastError: 'http_status',
      lastResponseStatus: 500,
      consecutiveFailures: 1,
    });
    expect(byEvent['webhook.disabled']).toMatchObject({
      webhookId: bad.id,
      url: failing.url,
      consecutiveFailures: 1,
      disabledAt: expect.any(String),
    });
    expect((await api.get(`/v1/webhooks/${bad.id}`, { token: owner.token })).body.status).toBe('disabled');

    // The failing subscription got only its three attempts, and no delivery row of an operational event.
    expect(failing.received.map((x) => x.body.event)).toEqual(['agent.updated', 'agent.updated', 'agent.updated']);
    expect(
      await t.deps.db('webhook_deliveries').where({ webhook_id: bad.id }).whereLike('event', 'webhook.%'),
    ).toHaveLength(0);
    expect(await t.deps.db('webhook_deliveries').where({ webhook_id: good.id })).toHaveLength(2);
    expect(await eventsOf(owner.accountId, 'webhook.disabled')).toHaveLength(1);
    expect(await eventsOf(owner.accountId, 'webhook.delivery_exhausted')).toHaveLength(1);
    expect(JSON.stringify(got.map((x) => x.raw))).not.toContain(bad.secret);
  });

  it('an exhausted delivery of an operational webhook event reports nothing further (failing receivers cannot ping-pong)', async () => {
    const owner = await signupAccount(api);
    const first = await receiver(() => ({ status: 500 }));
    const second = await receiver(() => ({ status: 500 }));
    const watcher = await receiver();
    const a = await subscribe(owner.token, first.url, ['agent.updated']);
    const b = await subscribe(owner.token, second.url, ['webhook.delivery_exhausted']);
    await subscribe(owner.token, watcher.url, ['webhook.disabled', 'webhook.delivery_exhausted', 'message.sent']);
    await transactWithEvents(t.deps, owner.accountId, (_trx, emit) =>
      emit({ type: 'agent.updated', payload: { id: 'agt_1' } }),
    );
    // a exhausts: webhook.delivery_exhausted goes to b (which fails it too) and to the watcher; both a and b are
    // disabled. b's exhausted delivery of that event is reported by nobody.
    await waitUntil(
      async () => (await eventsOf(owner.accountId, 'webhook.disabled')).length === 2,
      30_000,
      'both disabled',
    );
    await transactWithEvents(t.deps, owner.accountId, (_trx, emit) =>
      emit({ type: 'message.sent', payload: { id: 'sentinel' } }),
    );
    await waitUntil(() => watcher.received.some((x) => x.body.event === 'message.sent'), 30_000, 'the sentinel');
    expect(watcher.received.map((x) => x.body.event).sort()).toEqual([
      'message.sent',
      'webhook.delivery_exhausted',
      'webhook.disabled',
      'webhook.disabled',
    ]);
    expect((await eventsOf(owner.accountId, 'webhook.delivery_exhausted')).map((e) => e.payload.webhookId)).toEqual([
      a.id,
    ]);
    expect((await eventsOf(owner.accountId, 'webhook.disabled')).map((e) => e.payload.webhookId).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    expect(second.received.map((x) => x.body.event)).toEqual([
      'webhook.delivery_exhausted',
      'webhook.delivery_exhausted',
      'webhook.delivery_exhausted',
    ]);
  });
});
