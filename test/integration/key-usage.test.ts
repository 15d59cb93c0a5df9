import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, type Client } from '../helpers/http.js';
import { setupAccount } from '../helpers/setup-account.js';
import { createAccountKey, createAgentKey, updateKeyRow } from '../helpers/keys.js';
import { waitFor } from '../helpers/wait.js';
import { pruneKeyUsage } from '../../src/maintenance/key-usage-retention.js';
import { DAY_MS } from '../../src/maintenance/retention.js';

const LONG = 30 * 24 * 3600_000;
let t: TestContext;
let api: Client;

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
});
afterAll(() => t.close());

const totalsOf = (path: string, token: string, done: (totals: Record<string, number>) => boolean) =>
  waitFor(
    async () => (await api.get(path, { token })).body,
    (body) => Boolean(body?.totals) && done(body.totals),
    { what: `usage at ${path}` },
  );

describe('key usage', () => {
  it("counts each request's outcome per key per hour, every refusal by its code", async () => {
    const owner = await setupAccount(t, { agent: {} });
    const { agentId } = owner;
    const key = await createAccountKey(api, owner.token, {
      scopes: ['read:agents'],
      rateLimits: [{ name: 'small', limit: 3, durationMs: LONG }],
    });
    for (let i = 0; i < 3; i++) expect((await api.get('/v1/agents', { token: key.key })).status).toBe(200);
    expect((await api.get('/v1/agents', { token: key.key })).body.error.code).toBe('rate_limited');

    const scoped = await createAccountKey(api, owner.token, { scopes: ['read:agents'] });
    expect((await api.get('/v1/agents', { token: scoped.key })).status).toBe(200);
    expect((await api.get('/v1/webhooks', { token: scoped.key })).body.error.code).toBe('insufficient_scope');
    expect((await api.post('/v1/api_keys', { token: scoped.key, body: { name: 'x' } })).body.error.code).toBe(
      'admin_session_required',
    );
    const fenced = await createAccountKey(api, owner.token, { allowedIps: ['203.0.113.7'] });
    expect((await api.get('/v1/agents', { token: fenced.key })).body.error.code).toBe('ip_not_allowed');
    const expiring = await createAccountKey(api, owner.token);
    await updateKeyRow(t, expiring.id, { expires_at: new Date(Date.now() - 1000) });
    expect((await api.get('/v1/agents', { token: expiring.key })).body.error.code).toBe('key_expired');
    const dropped = await createAccountKey(api, owner.token);
    await api.post(`/v1/api_keys/${dropped.id}/deactivate`, { token: owner.token });
    expect((await api.get('/v1/agents', { token: dropped.key })).body.error.code).toBe('key_deactivated');

    const agentKey = await createAgentKey(api, owner.token, agentId, {
      scopes: ['agent:trigger', 'agent:config:read'],
      spendCapCredits: 0,
    });
    expect((await api.get('/v1/agents', { token: agentKey.key })).body.error.code).toBe('agent_forbidden');
    const chat = await api.post(`/v1/agents/${agentId}/chat`, { token: agentKey.key, body: { message: 'hi' } });
    expect(chat.body.error.code).toBe('spend_cap_exceeded');
    expect((await api.get(`/v1/agents/${agentId}`, { token: agentKey.key })).status).toBe(200);

    const usage = (id: string) => `/v1/api_keys/${id}/usage`;
    const read = await totalsOf(usage(key.id), owner.token, (x) => x.valid === 3 && x.rate_limited === 1);
    expect(read.totals).toMatchObject({ valid: 3, rate_limited: 1, insufficient_scope: 0 });
    expect(read.hours).toHaveLength(1);
    expect(read.hours[0].hour).toMatch(/T\d\d:00:00\.000Z$/);
    expect(read.hours[0].outcomes).toEqual(read.totals);
    await totalsOf(
      usage(scoped.id),
      owner.token,
      (x) => x.valid === 1 && x.insufficient_scope === 1 && x.admin_session_required === 1,
    );
    await totalsOf(usage(fenced.id), owner.token, (x) => x.ip_not_allowed === 1 && x.valid === 0);
    await totalsOf(usage(expiring.id), owner.token, (x) => x.key_expired === 1);
    await totalsOf(usage(dropped.id), owner.token, (x) => x.key_deactivated === 1);
    const agentUsage = `/v1/agents/${agentId}/api_keys/${agentKey.id}/usage`;
    await totalsOf(
      agentUsage,
      owner.token,
      (x) => x.agent_forbidden === 1 && x.spend_cap_exceeded === 1 && x.valid === 1,
    );
    // A key with read:api_keys reads usage too; a per-agent key reads none.
    const reader = await createAccountKey(api, owner.token, { scopes: ['read:api_keys'] });
    expect((await api.get(usage(key.id), { token: reader.key })).status).toBe(200);
    expect((await api.get(agentUsage, { token: agentKey.key })).body.error.code).toBe('agent_forbidden');
  });

  it("another account's key, or another agent's, is 404; a bad range is 400", async () => {
    const owner = await setupAccount(t, { agent: {}, agentKey: {}, accountKey: {} });
    const stranger = await setupAccount(t, { agent: {} });
    expect((await api.get(`/v1/api_keys/${owner.accountKey.id}/usage`, { token: stranger.token })).status).toBe(404);
    const agentUsage = `/v1/agents/${owner.agentId}/api_keys/${owner.agentKey.id}/usage`;
    expect((await api.get(agentUsage, { token: stranger.token })).status).toBe(404);
    const otherAgent = await api.get(`/v1/agents/${stranger.agentId}/api_keys/${owner.agentKey.id}/usage`, {
      token: stranger.token,
    });
    expect(otherAgent.status).toBe(404);
    // The per-agent route serves only that agent's keys.
    const viaAgent = `/v1/agents/${owner.agentId}/api_keys/${owner.accountKey.id}/usage`;
    expect((await api.get(viaAgent, { token: owner.token })).status).toBe(404);
    expect((await api.get(agentUsage, { token: owner.token })).status).toBe(200);

    const base = `/v1/api_keys/${owner.accountKey.id}/usage`;
    const backwards = await api.get(`${base}?from=2026-12-02T10:00:00.000Z&to=2026-12-02T09:00:00.000Z`, {
      token: owner.token,
    });
    expect(backwards.status).toBe(400);
    expect((await api.get(`${base}?from=yesterday`, { token: owner.token })).status).toBe(400);
    const ranged = await api.get(`${base}?from=2026-12-01T10:30:00.000Z&to=2026-12-01T12:00:00.000Z`, {
      token: owner.token,
    });
    expect(ranged.body).toMatchObject({ from: '2026-12-01T10:00:00.000Z', to: '2026-12-01T12:00:00.000Z', hours: [] });
  });

  it('drops hours past retention with the other statistics', async () => {
    const owner = await setupAccount(t, { accountKey: {} });
    const old = new Date(Date.now() - (t.deps.config.webhooks.retentionDays + 2) * DAY_MS);
    old.setUTCMinutes(0, 0, 0);
    const recent = new Date();
    recent.setUTCMinutes(0, 0, 0);
    await t.deps.db('api_key_usage').insert([
      { account_id: owner.accountId, key_id: owner.accountKey.id, hour: old, outcome: 'valid', n: 5 },
      { account_id: owner.accountId, key_id: owner.accountKey.id, hour: recent, outcome: 'key_expired', n: 2 },
    ]);
    await pruneKeyUsage(t.deps);
    const rows = await t.deps.db('api_key_usage').where({ key_id: owner.accountKey.id });
    expect(rows.map((r) => r.outcome)).toEqual(['key_expired']);
  });
});
