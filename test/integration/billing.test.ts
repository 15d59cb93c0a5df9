import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCredential } from '../../src/http/credentials.js';
import type { Principal } from '../../src/auth/principal.js';
import { chargeCredits } from '../../src/billing/billing.service.js';
import { AppError } from '../../src/platform/errors.js';
import { transactWithEvents } from '../../src/events/emit.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, createAgentKey } from '../helpers/keys.js';

const WINDOW_MS = 24 * 3600_000;
let t: TestContext;
let api: Client;

beforeAll(async () => {
  // A day-long rate window: a burst that must reach the limit cannot straddle a window's end (a fixed minute
  // window would split it in two now and then), and the per-window budget is the plan's as in production.
  t = await createTestContext({}, { tune: (config) => void (config.rateLimitWindowMs = WINDOW_MS) });
  api = client(t.url);
});
afterAll(() => t.close());

const principalOf = async (token: string): Promise<Principal> =>
  (await resolveCredential(t.deps, token, { ip: '127.0.0.1' })).principal;

/** One charge in its own transaction, as a money-spending route does it; resolves to the error code or 'ok'. */
async function charge(principal: Principal, amount: number, reason = 'agent.trigger'): Promise<string> {
  try {
    await transactWithEvents(t.deps, principal.accountId, (trx, emit) =>
      chargeCredits(t.deps, trx, emit, principal, amount, reason),
    );
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

const balanceOf = async (accountId: string) =>
  (await t.deps.db('accounts').where({ id: accountId }).first()).credits_balance as number;

describe('GET /v1/billing and POST /v1/billing/credits', () => {
  it("shows plan, balance (1,000 at signup) and this month's usage; read:billing keys may read it", async () => {
    const owner = await signupAccount(api);
    const res = await api.get('/v1/billing', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ plan: 'free', creditsBalance: 1000, usage: { creditsUsed: 0, byReason: [] } });
    const reader = await createAccountKey(api, owner.token, { scopes: ['read:billing'] });
    expect((await api.get('/v1/billing', { token: reader.key })).status).toBe(200);
    const plain = await createAccountKey(api, owner.token);
    const denied = await api.get('/v1/billing', { token: plain.key });
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.requiredScope).toBe('read:billing');
  });

  it('adds credits for an admin session only, audited; rejects bad amounts', async () => {
    const owner = await signupAccount(api);
    const res = await api.post('/v1/billing/credits', { token: owner.token, body: { amount: 250 } });
    expect(res.status).toBe(200);
    expect(res.body.creditsBalance).toBe(1250);
    for (const amount of [0, -5, 1.5, '10']) {
      expect((await api.post('/v1/billing/credits', { token: owner.token, body: { amount } })).status).toBe(400);
    }
    const key = await createAccountKey(api, owner.token, { scopes: ['read:billing'] });
    const denied = await api.post('/v1/billing/credits', { token: key.key, body: { amount: 1 } });
    expect(denied.body.error.code).toBe('admin_session_required');
    const logs = (await api.get('/v1/logs', { token: owner.token })).body.data;
    expect(logs.find((l: any) => l.action === 'billing.credits_added')).toMatchObject({
      details: { amount: 250 },
      ip: '127.0.0.1',
    });
    expect(await balanceOf(owner.accountId)).toBe(1250);
  });
});

describe('chargeCredits', () => {
  it('charges the key and the balance together and shows up in usage', async () => {
    const owner = await signupAccount(api);
    const key = await createAccountKey(api, owner.token, { scopes: ['trigger:agents'], spendCapCredits: 100 });
    const p = await principalOf(key.key);
    expect(await charge(p, 5)).toBe('ok');
    expect(await charge(p, 1, 'message.email')).toBe('ok');
    expect(await balanceOf(owner.accountId)).toBe(994);
    expect((await api.get(`/v1/api_keys/${key.id}`, { token: owner.token })).body.spentCredits).toBe(6);
    const billing = (await api.get('/v1/billing', { token: owner.token })).body;
    expect(billing.usage.creditsUsed).toBe(6);
    expect(billing.usage.byReason).toEqual([
      { reason: 'agent.trigger', credits: 5, count: 1 },
      { reason: 'message.email', credits: 1, count: 1 },
    ]);
  });

  it('lets exactly 3 of 50 concurrent charges through a cap that allows 3; the rest are 402 spend_cap_exceeded', async () => {
    const owner = await signupAccount(api);
    const agentId = await createAgent(t, owner.accountId);
    const key = await createAgentKey(api, owner.token, agentId, { scopes: ['agent:trigger'], spendCapCredits: 15 });
    const p = await principalOf(key.key);
    const results = await Promise.all(Array.from({ length: 50 }, () => charge(p, 5)));
    expect(results.filter((r) => r === 'ok')).toHaveLength(3);
    expect(results.filter((r) => r === 'spend_cap_exceeded')).toHaveLength(47);
    expect((await t.deps.db('api_keys').where({ id: key.id }).first()).spent_credits).toBe(15);
    expect(await balanceOf(owner.accountId)).toBe(985);
    expect(await t.deps.db('credit_ledger').where({ key_id: key.id })).toHaveLength(3);
  });

  it('never takes the balance below zero under concurrency: 402 insufficient_credits, nothing charged', async () => {
    const owner = await signupAccount(api);
    await t.deps.db('accounts').where({ id: owner.accountId }).update({ credits_balance: 12 });
    const key = await createAccountKey(api, owner.token, { scopes: ['trigger:agents'], spendCapCredits: 1000 });
    const p = await principalOf(key.key);
    const session = await principalOf(owner.token);
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => charge(i % 2 ? p : session, 5)));
    expect(results.filter((r) => r === 'ok')).toHaveLength(2);
    expect(results.filter((r) => r === 'insufficient_credits')).toHaveLength(23);
    expect(await balanceOf(owner.accountId)).toBe(2);
    const spent = (await t.deps.db('api_keys').where({ id: key.id }).first()).spent_credits;
    const ledger = await t.deps.db('credit_ledger').where({ account_id: owner.accountId });
    expect(ledger).toHaveLength(2);
    // A refused charge rolls back the key's share too.
    expect(spent).toBe(ledger.filter((l) => l.key_id === key.id).length * 5);
  });

  it('rate-limits uncapped keys by plan (free: 60 per window) with 429 and RateLimit headers; capped keys and sessions are not', async () => {
    const owner = await signupAccount(api);
    const uncapped = await principalOf((await createAccountKey(api, owner.token, { scopes: ['messages:send'] })).key);
    const capped = await principalOf(
      (await createAccountKey(api, owner.token, { scopes: ['messages:send'], spendCapCredits: 500 })).key,
    );
    const session = await principalOf(owner.token);
    const first = await Promise.all(Array.from({ length: 60 }, () => charge(uncapped, 1)));
    expect(first.every((r) => r === 'ok')).toBe(true);
    let limited: AppError | undefined;
    try {
      await transactWithEvents(t.deps, uncapped.accountId, (trx, emit) =>
        chargeCredits(t.deps, trx, emit, uncapped, 1, 'message.email'),
      );
    } catch (err) {
      limited = err as AppError;
    }
    expect(limited?.code).toBe('rate_limited');
    expect(limited?.status).toBe(429);
    expect(limited?.headers).toMatchObject({ 'RateLimit-Limit': '60', 'RateLimit-Remaining': '0' });
    const retryAfter = Number(limited!.headers!['Retry-After']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
    expect(limited!.headers!['RateLimit-Reset']).toBe(String(retryAfter));
    // The refused request charged nothing.
    expect(await balanceOf(owner.accountId)).toBe(940);

    const others = await Promise.all(Array.from({ length: 70 }, (_, i) => charge(i % 2 ? capped : session, 1)));
    expect(others.every((r) => r === 'ok')).toBe(true);
  });

  it('uses the pro plan limit for pro accounts', async () => {
    const owner = await signupAccount(api);
    await t.deps.db('accounts').where({ id: owner.accountId }).update({ plan: 'pro' });
    const uncapped = await principalOf((await createAccountKey(api, owner.token, { scopes: ['messages:send'] })).key);
    const results = await Promise.all(Array.from({ length: 80 }, () => charge(uncapped, 1)));
    expect(results.every((r) => r === 'ok')).toBe(true);
  });
});

describe('money-spending requests over HTTP (POST /v1/agents/:id/chat)', () => {
  it('lets exactly 3 of 50 concurrent chats through a per-agent key whose cap allows 3; the rest get 402', async () => {
    const owner = await signupAccount(api);
    const agentId = await createAgent(t, owner.accountId, 'Chatty', { autoReply: 'hello' });
    const price = t.deps.config.prices.agentTrigger;
    const key = await createAgentKey(api, owner.token, agentId, {
      scopes: ['agent:trigger'],
      spendCapCredits: price * 3,
    });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.post(`/v1/agents/${agentId}/chat`, { token: key.key, body: { message: `hi ${i}` } }),
      ),
    );
    expect(results.filter((r) => r.status === 202)).toHaveLength(3);
    const refused = results.filter((r) => r.status !== 202);
    expect(refused).toHaveLength(47);
    for (const r of refused)
      expect({ status: r.status, code: r.body.error.code }).toEqual({ status: 402, code: 'spend_cap_exceeded' });
    expect((await api.get(`/v1/api_keys/${key.id}`, { token: owner.token })).body.spentCredits).toBe(price * 3);
    expect((await api.get('/v1/billing', { token: owner.token })).body.creditsBalance).toBe(1000 - price * 3);
  });

  it('answers 429 with Retry-After and RateLimit-* once an uncapped account key passes the free plan limit', async () => {
    const owner = await signupAccount(api);
    const agentId = await createAgent(t, owner.accountId, 'Chatty', { autoReply: 'hello' });
    const key = await createAccountKey(api, owner.token, { scopes: ['trigger:agents'] });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, () =>
          api.post(`/v1/agents/${agentId}/chat`, { token: key.key, body: { message: 'hi' } }),
        ),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.every((s) => s === 202)).toBe(true);
    const limited = await api.post(`/v1/agents/${agentId}/chat`, { token: key.key, body: { message: 'one more' } });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('ratelimit-limit')).toBe('60');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toBe(limited.headers.get('retry-after'));
    expect((await api.get('/v1/billing', { token: owner.token })).body.creditsBalance).toBe(
      1000 - 60 * t.deps.config.prices.agentTrigger,
    );
  });
});
