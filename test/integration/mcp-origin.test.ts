import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAgent, createAgentKey } from '../helpers/keys.js';
import { REDIRECT_URI } from '../helpers/oauth.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// DNS rebinding: a browser page on a foreign site reaches the MCP and OAuth endpoints with its own Origin and
// is refused with 403 before anything runs; our own origin, the configured ones and requests without an
// Origin (native clients) are served. The REST API is not an MCP or OAuth endpoint and keeps its behaviour.

const LISTED = 'http://localhost:6274';
const EVIL = 'http://evil.example';

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentId: string;
let agentKey: string;
const mcpHeaders = (origin?: string) => ({
  accept: 'application/json, text/event-stream',
  ...(origin ? { origin } : {}),
});
const countOf = async (query: ReturnType<TestContext['deps']['db']>) =>
  Number((await query.count<{ count: string }[]>({ count: '*' }))[0]!.count);
const agentCount = () => countOf(t.deps.db('agents'));
const clientCount = () => countOf(t.deps.db('oauth_store').where({ model: 'Client' }));

beforeAll(async () => {
  t = await createTestContext({ MCP_ALLOWED_ORIGINS: `${LISTED}, https://app.example.com` });
  api = client(t.url);
  owner = await signupAccount(api);
  agentId = await createAgent(t, owner.accountId, 'Alpha');
  agentKey = (await createAgentKey(api, owner.token, agentId, { scopes: ['agent:config:read'] })).key;
});
afterAll(() => t.close());

describe('Origin on the MCP endpoints', () => {
  it('refuses a foreign Origin with 403 in the contract shape, and runs nothing', async () => {
    const before = await agentCount();
    const params = { name: 'create_agent', arguments: { name: 'Evil' } };
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params };
    for (const origin of [EVIL, 'null', `${t.url}.evil.example`, 'https://localhost:6274']) {
      const res = await api.post('/v1/mcp', { token: owner.token, headers: mcpHeaders(origin), body: call });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'origin_not_allowed' });
    }
    const agent = await api.post(`/v1/agents/${agentId}/mcp`, {
      token: agentKey,
      headers: mcpHeaders(EVIL),
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect([agent.status, agent.body.error.code]).toEqual([403, 'origin_not_allowed']);
    // Without a credential too: the Origin is judged first, so a rebinding page learns nothing else.
    const anonymous = await api.post('/v1/mcp', { headers: mcpHeaders(EVIL), body: call });
    expect(anonymous.status).toBe(403);
    // A later request proves the refused ones are finished: none of them created an agent.
    expect((await api.get('/v1/agents', { token: owner.token })).status).toBe(200);
    expect(await agentCount()).toBe(before);
  });

  it('serves our own origin, a listed origin and a request without Origin', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    for (const origin of [t.url, LISTED, 'https://app.example.com', undefined]) {
      const headers = mcpHeaders(origin);
      const res = await api.post(`/v1/agents/${agentId}/mcp`, { token: agentKey, headers, body: list });
      expect(res.status).toBe(200);
      expect(res.body.result.tools.length).toBeGreaterThan(0);
    }
  });

  it('leaves the REST API alone: a foreign Origin there is judged by the credential as before', async () => {
    const res = await api.get('/v1/agents', { token: owner.token, headers: { origin: EVIL } });
    expect(res.status).toBe(200);
  });
});

describe('Origin on the OAuth endpoints', () => {
  const register = (origin?: string) =>
    fetch(`${t.url}/oauth/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
    });

  it('refuses registration, token, metadata and the sign-in form from a foreign Origin; registers nothing', async () => {
    const before = await clientCount();
    const reg = await register(EVIL);
    expect(reg.status).toBe(403);
    expect(((await reg.json()) as { error: { code: string } }).error.code).toBe('origin_not_allowed');
    const token = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: EVIL },
      body: 'grant_type=refresh_token&refresh_token=x&client_id=y',
    });
    expect(token.status).toBe(403);
    const metadata = ['/.well-known/oauth-authorization-server/oauth', '/.well-known/oauth-protected-resource/v1/mcp'];
    for (const path of metadata)
      expect((await fetch(`${t.url}${path}`, { headers: { origin: EVIL } })).status).toBe(403);
    const login = await fetch(`${t.url}/oauth/interaction/abc/login`, { method: 'POST', headers: { origin: EVIL } });
    expect(login.status).toBe(403);
    expect(await clientCount()).toBe(before);
  });

  it('serves them from our origin, a listed origin and without Origin', async () => {
    for (const origin of [t.url, LISTED, undefined]) expect((await register(origin)).status).toBe(201);
    const metadata = await fetch(`${t.url}/.well-known/oauth-authorization-server/oauth`, {
      headers: { origin: LISTED },
    });
    expect(metadata.status).toBe(200);
  });
});
