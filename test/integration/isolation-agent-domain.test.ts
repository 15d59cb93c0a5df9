import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { getAgent, listAgents, updateAgent } from '../../src/agents/agents.service.js';
import { listAgentConversations, listDrafts } from '../../src/messages/messages.service.js';
import { triggerAgent } from '../../src/runs/runs.service.js';
import type { KeyPrincipal } from '../../src/auth/principal.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgentKey, ALL_AGENT_SCOPES } from '../helpers/keys.js';

// The per-agent REST surface: a per-agent key reaches its own agent only (403 elsewhere), and another
// account's credentials get 404 on every per-agent route, never the data.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentA: string;
let agentB: string;
let runA: string;
let keyA: string;
let keyB: string;

/** Every per-agent route (open to a per-agent key) of the router, with the agent param filled in. */
function perAgentRoutes(agentId: string, runId: string) {
  const { api: router } = createApp(t.deps);
  const routes: Array<{ route: string; method: string; url: string }> = [];
  for (const [route, access] of router.declarations) {
    if (access.kind !== 'scope' || !access.agentScope) continue;
    const [method, path] = route.split(' ') as [string, string];
    const url = path.replace(/:(\w+)/g, (_, name: string) => (name === 'runId' ? runId : agentId));
    routes.push({ route, method, url });
  }
  return routes;
}

const bodyFor = (route: string) =>
  route.startsWith('PATCH')
    ? { config: { note: 'x' } }
    : route.endsWith('/chat')
      ? { message: 'hi' }
      : route.endsWith('/api-keys')
        ? { name: 'k' }
        : {};

async function call(method: string, url: string, token: string, route: string) {
  const hasBody = method !== 'GET' && method !== 'DELETE';
  return api[method.toLowerCase() as 'get'](url, { token, ...(hasBody ? { body: bodyFor(route) } : {}) });
}

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  agentA = (await api.post('/v1/agents', { token: owner.token, body: { name: 'A', config: { secret: 'a-only' } } }))
    .body.id;
  agentB = (await api.post('/v1/agents', { token: owner.token, body: { name: 'B', config: { secret: 'b-only' } } }))
    .body.id;
  runA = (await api.post(`/v1/agents/${agentA}/chat`, { token: owner.token, body: { message: 'for A' } })).body.run.id;
  await api.post(`/v1/agents/${agentB}/chat`, { token: owner.token, body: { message: 'for B' } });
  keyA = (await createAgentKey(api, owner.token, agentA, { scopes: ALL_AGENT_SCOPES })).key;
  keyB = (await createAgentKey(api, owner.token, agentB, { scopes: ALL_AGENT_SCOPES })).key;
});
afterAll(() => t.close());

describe('per-agent surface isolation', () => {
  it('covers the per-agent routes of the interface', () => {
    const routes = perAgentRoutes(agentA, runA).map((r) => r.route);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /v1/agents/:agentId',
        'PATCH /v1/agents/:agentId',
        'GET /v1/agents/:agentId/contacts',
        'GET /v1/agents/:agentId/drafts',
        'GET /v1/agents/:agentId/conversations',
        'GET /v1/agents/:agentId/activity',
        'POST /v1/agents/:agentId/chat',
      ]),
    );
  });

  it('a per-agent key works on its own agent and gets 403 agent_forbidden on every per-agent route of another agent', async () => {
    for (const { route, method, url } of perAgentRoutes(agentA, runA)) {
      if (route.endsWith('/api-keys') || route.endsWith('/mcp')) continue;
      const own = await call(method, url, keyA, route);
      expect({ route, status: own.status }).toEqual({ route, status: route.endsWith('/chat') ? 202 : 200 });
      const foreign = await call(method, url, keyB, route);
      expect({ route, status: foreign.status, code: foreign.body?.error?.code }).toEqual({
        route,
        status: 403,
        code: 'agent_forbidden',
      });
      expect(JSON.stringify(foreign.body)).not.toContain('a-only');
    }
  });

  it("another account's session and account key get 404 on every per-agent route, never the data", async () => {
    const other = await signupAccount(api, 'Other');
    const updatesBefore = (await t.deps.db('events').where({ account_id: owner.accountId, type: 'agent.updated' }))
      .length;
    const otherKey = (
      await createAccountKey(api, other.token, {
        scopes: ['read:agents', 'write:agents', 'read:contacts', 'read:messages', 'read:activity', 'trigger:agents'],
      })
    ).key;
    for (const token of [other.token, otherKey]) {
      for (const { route, method, url } of perAgentRoutes(agentA, runA)) {
        if (route.endsWith('/api-keys') || route.endsWith('/mcp')) continue;
        const res = await call(method, url, token, route);
        expect({ route, status: res.status, code: res.body?.error?.code }).toEqual({
          route,
          status: 404,
          code: 'not_found',
        });
        expect(JSON.stringify(res.body)).not.toContain('a-only');
      }
    }
    // Nothing was changed or charged in the first account by those attempts.
    expect((await t.deps.db('events').where({ account_id: owner.accountId, type: 'agent.updated' })).length).toBe(
      updatesBefore,
    );
    expect(await t.deps.db('runs').where({ account_id: other.accountId })).toHaveLength(0);
  });

  it('a per-agent key gets 403 agent_forbidden on every account route of the agent domain', async () => {
    const routes: Array<[string, string]> = [
      ['GET', '/v1/agents'],
      ['POST', '/v1/agents'],
      ['GET', '/v1/contacts'],
      ['POST', '/v1/contacts'],
      ['GET', '/v1/contacts/ct_x'],
      ['PATCH', '/v1/contacts/ct_x'],
      ['GET', '/v1/inboxes'],
      ['POST', '/v1/inboxes'],
      ['GET', '/v1/inboxes/inb_x'],
      ['PATCH', '/v1/inboxes/inb_x'],
      ['DELETE', '/v1/inboxes/inb_x'],
      ['GET', '/v1/messages'],
      ['POST', '/v1/messages'],
      ['GET', '/v1/messages/msg_x'],
      ['POST', '/v1/messages/msg_x/send'],
      ['GET', '/v1/drafts'],
      ['GET', '/v1/conversations'],
      ['GET', '/v1/activity'],
    ];
    for (const [method, url] of routes) {
      const res = await call(method, url, keyA, `${method} ${url}`);
      expect({ url, method, status: res.status, code: res.body?.error?.code }).toEqual({
        url,
        method,
        status: 403,
        code: 'agent_forbidden',
      });
    }
  });

  it('a per-agent key may patch only config, and only with agent:config:write', async () => {
    const rename = await api.patch(`/v1/agents/${agentA}`, { token: keyA, body: { name: 'hijacked' } });
    expect(rename.status).toBe(403);
    expect(rename.body.error).toMatchObject({ code: 'insufficient_scope', details: { requiredScope: 'write:agents' } });
    const pause = await api.patch(`/v1/agents/${agentA}`, {
      token: keyA,
      body: { status: 'paused', config: { a: 1 } },
    });
    expect(pause.status).toBe(403);
    const agent = (await api.get(`/v1/agents/${agentA}`, { token: owner.token })).body;
    expect(agent).toMatchObject({ name: 'A', status: 'active' });
    expect(agent.config).not.toHaveProperty('a');

    const readOnly = (await createAgentKey(api, owner.token, agentA)).key;
    const denied = await api.patch(`/v1/agents/${agentA}`, { token: readOnly, body: { config: { b: 1 } } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.requiredScope).toBe('agent:config:write');
    const ok = await api.patch(`/v1/agents/${agentA}`, { token: keyA, body: { config: { b: 2 } } });
    expect(ok.status).toBe(200);
    expect(ok.body.config).toMatchObject({ secret: 'a-only', b: 2 });
  });

  it("a per-agent key sees only its own agent's conversations", async () => {
    const res = await api.get(`/v1/agents/${agentA}/conversations`, { token: keyA });
    const texts = res.body.data.flatMap((c: { recentMessages: Array<{ text: string }> }) =>
      c.recentMessages.map((m) => m.text),
    );
    expect(texts).toContain('for A');
    expect(texts).not.toContain('for B');
  });

  it('the services themselves refuse a per-agent principal outside its agent (the MCP path)', async () => {
    const row = await t.deps.db('api_keys').where({ agent_id: agentB }).first();
    const principal: KeyPrincipal = {
      type: 'key',
      accountId: owner.accountId,
      keyId: row.id,
      keyType: 'agent',
      agentId: agentB,
      scopes: ALL_AGENT_SCOPES,
      spendCapCredits: null,
    };
    const page = { limit: 20 };
    await expect(getAgent(t.deps, principal, agentA)).rejects.toMatchObject({ code: 'agent_forbidden' });
    await expect(updateAgent(t.deps, { principal, ip: null }, agentA, { config: { x: 1 } })).rejects.toMatchObject({
      code: 'agent_forbidden',
    });
    await expect(listAgentConversations(t.deps, principal, agentA, page)).rejects.toMatchObject({
      code: 'agent_forbidden',
    });
    await expect(triggerAgent(t.deps, { principal, ip: null }, agentA, 'x')).rejects.toMatchObject({
      code: 'agent_forbidden',
    });
    await expect(listAgents(t.deps, principal, page)).rejects.toMatchObject({ code: 'agent_forbidden' });
    await expect(listDrafts(t.deps, principal, page)).rejects.toMatchObject({ code: 'agent_forbidden' });
    await expect(updateAgent(t.deps, { principal, ip: null }, agentB, { name: 'x' })).rejects.toMatchObject({
      code: 'insufficient_scope',
    });
    expect((await getAgent(t.deps, principal, agentB)).id).toBe(agentB);
  });
});
