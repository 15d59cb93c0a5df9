import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, type Client } from '../helpers/http.js';
import { setupAccount } from '../helpers/setup-account.js';
import { createAccountKey, createAgentKey } from '../helpers/keys.js';

// Windows of thirty days: a burst that must reach a limit cannot straddle a window's end.
const LONG = 30 * 24 * 3600_000;
let t: TestContext;
let api: Client;

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
});
afterAll(() => t.close());

const statuses = async (n: number, send: (i: number) => Promise<{ status: number }>) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await send(i)).status);
  return out;
};

describe('named rate limits', () => {
  it("refuses with 429 rate_limited naming the full limit, with that limit's Retry-After and RateLimit-* headers", async () => {
    const owner = await setupAccount(t, {
      accountKey: {
        scopes: ['read:agents'],
        rateLimits: [
          { name: 'wide', limit: 10, durationMs: LONG },
          { name: 'narrow', limit: 2, durationMs: LONG },
        ],
      },
    });
    const key = owner.accountKey;
    expect(key.body.rateLimits).toEqual([
      { name: 'wide', limit: 10, durationMs: LONG },
      { name: 'narrow', limit: 2, durationMs: LONG },
    ]);
    expect(await statuses(2, () => api.get('/v1/agents', { token: key.key }))).toEqual([200, 200]);
    const refused = await api.get('/v1/agents', { token: key.key });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      code: 'rate_limited',
      details: { name: 'narrow', limit: 2, durationMs: LONG, appliesTo: 'key' },
    });
    const reset = Number(refused.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(LONG / 1000);
    expect(refused.headers.get('retry-after')).toBe(String(reset));
    expect(refused.headers.get('ratelimit-limit')).toBe('2');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');

    // A refused request spends no other limit: raising the narrow one lets exactly 8 more through the wide one.
    const raised = await api.patch(`/v1/api_keys/${key.id}`, {
      token: owner.token,
      body: { rateLimits: [{ name: 'wide', limit: 10, durationMs: LONG }] },
    });
    expect(raised.status).toBe(200);
    const more = await statuses(9, () => api.get('/v1/agents', { token: key.key }));
    expect(more).toEqual([...Array(8).fill(200), 429]);
  });

  it('holds across API instances: two servers share one budget', async () => {
    const other = await t.startAnotherServer();
    const otherApi = client(other.url);
    const owner = await setupAccount(t, {
      accountKey: { scopes: ['read:agents'], rateLimits: [{ name: 'shared', limit: 4, durationMs: LONG }] },
    });
    const token = owner.accountKey.key;
    const answers = await statuses(6, (i) => (i % 2 ? otherApi : api).get('/v1/agents', { token }));
    expect(answers).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it("an agent's limits are shared by all its per-agent keys, and only an admin session sets them", async () => {
    const owner = await setupAccount(t, { agent: {}, agentKey: {} });
    const { agentId } = owner;
    const second = await createAgentKey(api, owner.token, agentId);
    const path = `/v1/agents/${agentId}/key-rate-limits`;
    const body = { rateLimits: [{ name: 'agent-burst', limit: 3, durationMs: LONG }] };

    expect((await api.put(path, { token: owner.agentKey.key, body })).body.error.code).toBe('agent_forbidden');
    const accountKey = await createAccountKey(api, owner.token, { scopes: ['read:agents', 'write:agents'] });
    expect((await api.put(path, { token: accountKey.key, body })).body.error.code).toBe('admin_session_required');
    const stranger = await setupAccount(t);
    expect((await api.put(path, { token: stranger.token, body })).status).toBe(404);
    expect((await api.get(path, { token: stranger.token })).status).toBe(404);

    const set = await api.put(path, { token: owner.token, body });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ agentId, ...body });
    expect((await api.get(path, { token: owner.token })).body).toEqual({ agentId, ...body });

    const agentPath = `/v1/agents/${agentId}`;
    expect((await api.get(agentPath, { token: owner.agentKey.key })).status).toBe(200);
    expect((await api.get(agentPath, { token: second.key })).status).toBe(200);
    expect((await api.get(agentPath, { token: owner.agentKey.key })).status).toBe(200);
    const refused = await api.get(agentPath, { token: second.key });
    expect(refused.status).toBe(429);
    expect(refused.body.error.details).toMatchObject({ name: 'agent-burst', limit: 3, appliesTo: 'agent' });
    expect(refused.headers.get('ratelimit-limit')).toBe('3');
    // Account keys and sessions are not counted against an agent's key limits.
    expect((await api.get(agentPath, { token: owner.token })).status).toBe(200);

    // Removing them applies on the very next request.
    expect((await api.put(path, { token: owner.token, body: { rateLimits: [] } })).status).toBe(200);
    expect((await api.get(agentPath, { token: second.key })).status).toBe(200);
  });

  it('refuses malformed limits with 400 validation_error', async () => {
    const owner = await setupAccount(t, { agent: {} });
    const bad = [
      [
        { name: 'a', limit: 1, durationMs: LONG },
        { name: 'a', limit: 2, durationMs: LONG },
      ],
      [{ name: 'a', limit: 0, durationMs: LONG }],
      [{ name: 'a', limit: 1, durationMs: 999 }],
      [{ name: 'a b', limit: 1, durationMs: LONG }],
      [{ name: 'a', limit: 1.5, durationMs: LONG }],
      [{ name: 'a', limit: 1, durationMs: LONG, extra: true }],
      Array.from({ length: 11 }, (_, i) => ({ name: `l${i}`, limit: 1, durationMs: LONG })),
    ];
    for (const rateLimits of bad) {
      const create = await api.post('/v1/api_keys', { token: owner.token, body: { name: 'x', rateLimits } });
      expect(create.status, JSON.stringify(rateLimits)).toBe(400);
      expect(create.body.error.code).toBe('validation_error');
      const agent = await api.put(`/v1/agents/${owner.agentId}/key-rate-limits`, {
        token: owner.token,
        body: { rateLimits },
      });
      expect(agent.status).toBe(400);
    }
  });
});
