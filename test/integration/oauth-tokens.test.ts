import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAgent, createAgentKey } from '../helpers/keys.js';
import { callTool, connectMcp, toolNames } from '../helpers/mcp.js';
import { obtainTokens, tokenRequest } from '../helpers/oauth.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// OAuth access tokens as Switchboard credentials: bound to their resource, acting as a key of it, revocable
// on the next request everywhere, stored hashed. The flows here sign in and consent over plain HTTP; the
// browser test does the same in chromium.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentA: string;
let agentB: string;
const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const mcpHeaders = { accept: 'application/json, text/event-stream' };
const agentResource = (id: string) => `${t.url}/v1/agents/${id}/mcp`;
const agentFlow = (id: string, choose: string[]) =>
  obtainTokens(t.url, {
    resource: agentResource(id),
    scope: choose.join(' '),
    email: owner.email,
    password: owner.password,
    choose,
  });

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  agentA = await createAgent(t, owner.accountId, 'Alpha', { autoReply: 'alpha here' });
  agentB = await createAgent(t, owner.accountId, 'Beta');
});
afterAll(() => t.close());

describe('discovery', () => {
  it('serves protected resource metadata for both MCP endpoints (path-suffixed and root) naming the issuer and scopes', async () => {
    const agent = await api.get(`/.well-known/oauth-protected-resource/v1/agents/${agentA}/mcp`);
    expect(agent.status).toBe(200);
    expect(agent.body).toMatchObject({
      resource: agentResource(agentA),
      authorization_servers: [`${t.url}/oauth`],
      bearer_methods_supported: ['header'],
    });
    expect(agent.body.scopes_supported).toContain('agent:trigger');
    const account = await api.get('/.well-known/oauth-protected-resource/v1/mcp');
    expect(account.body).toMatchObject({ resource: `${t.url}/v1/mcp` });
    expect(account.body.scopes_supported).toContain('read:agents');
    expect((await api.get('/.well-known/oauth-protected-resource')).body.resource).toBe(`${t.url}/v1/mcp`);
    expect((await api.get('/.well-known/oauth-protected-resource/v1/agents/not-an-id/mcp')).status).toBe(404);
  });

  it('serves RFC 8414 metadata: code + PKCE S256 only, registration, revocation, client ID metadata documents', async () => {
    const res = await api.get('/.well-known/oauth-authorization-server/oauth');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: `${t.url}/oauth`,
      authorization_endpoint: `${t.url}/oauth/auth`,
      token_endpoint: `${t.url}/oauth/token`,
      registration_endpoint: `${t.url}/oauth/reg`,
      revocation_endpoint: `${t.url}/oauth/token/revocation`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
    });
    expect(res.body.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(res.body.grant_types_supported).not.toContain('implicit');
  });

  it('challenges on the MCP endpoints with the resource metadata, and keeps the REST challenges', async () => {
    const missing = await api.post(`/v1/agents/${agentA}/mcp`, { body: rpc, headers: mcpHeaders });
    expect(missing.status).toBe(401);
    const challenge = missing.headers.get('www-authenticate')!;
    expect(challenge).toContain(
      `resource_metadata="${t.url}/.well-known/oauth-protected-resource/v1/agents/${agentA}/mcp"`,
    );
    expect(challenge).toContain('scope="agent:config:read');
    expect(challenge).not.toContain('error=');
    const bad = await api.post('/v1/mcp', { token: 'x'.repeat(43), body: rpc, headers: mcpHeaders });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/resource_metadata="[^"]+\/v1\/mcp", .*error="invalid_token"/);
    expect((await api.get('/v1/agents')).headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    const readKey = (await createAgentKey(api, owner.token, agentA, { scopes: ['agent:config:read'] })).key;
    const scoped = await api.patch(`/v1/agents/${agentA}`, { token: readKey, body: { config: { a: 1 } } });
    expect(scoped.status).toBe(403);
    expect(scoped.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", scope="agent:config:write"',
    );
  });
});

describe('access tokens', () => {
  it('are refused by another resource (401) and by the REST API, and an account grant works on /v1/mcp only', async () => {
    const account = await obtainTokens(t.url, {
      resource: `${t.url}/v1/mcp`,
      scope: 'read:agents',
      email: owner.email,
      password: owner.password,
      choose: ['read:agents'],
    });
    const conn = await connectMcp(t.url, '/v1/mcp', account.access_token);
    expect(await toolNames(conn)).toEqual(['get_agent', 'list_agents']);
    await conn.close();
    const elsewhere = await api.post(`/v1/agents/${agentA}/mcp`, {
      token: account.access_token,
      body: rpc,
      headers: mcpHeaders,
    });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.error.code).toBe('invalid_credential');
    expect(elsewhere.headers.get('www-authenticate')).toContain('error="invalid_token"');

    const agent = await agentFlow(agentA, ['agent:config:read']);
    for (const token of [account.access_token, agent.access_token]) {
      const rest = await api.get(`/v1/agents/${agentA}`, { token });
      expect(rest.status).toBe(401);
      expect(rest.body.error.code).toBe('invalid_credential');
    }
  });

  it('rotate their refresh token; the old one is refused and its replay ends the whole grant', async () => {
    const first = await agentFlow(agentA, ['agent:config:read']);
    const refreshed = await tokenRequest(t.url, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: first.clientId,
      resource: agentResource(agentA),
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toBeTruthy();
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    expect(refreshed.body.scope).toBe('agent:config:read');
    expect(
      (
        await api.post(`/v1/agents/${agentA}/mcp`, {
          token: refreshed.body.access_token,
          body: rpc,
          headers: mcpHeaders,
        })
      ).status,
    ).toBe(200);

    const replay = await tokenRequest(t.url, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: first.clientId,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect(JSON.stringify(replay.body)).not.toMatch(/ at |stack/);
    // A replayed refresh token means it leaked: every token of the grant is gone, and the grant with them.
    expect(
      (
        await api.post(`/v1/agents/${agentA}/mcp`, {
          token: refreshed.body.access_token,
          body: rpc,
          headers: mcpHeaders,
        })
      ).status,
    ).toBe(401);
    const again = await tokenRequest(t.url, {
      grant_type: 'refresh_token',
      refresh_token: refreshed.body.refresh_token,
      client_id: first.clientId,
    });
    expect(again.body.error).toBe('invalid_grant');
  });

  it('stop on the very next request on every instance when an admin revokes the grant', async () => {
    const other = await t.startAnotherServer();
    const tokens = await agentFlow(agentA, ['agent:config:read']);
    const onOther = () =>
      client(other.url).post(`/v1/agents/${agentA}/mcp`, {
        token: tokens.access_token,
        body: rpc,
        headers: mcpHeaders,
      });
    expect((await onOther()).status).toBe(200);
    const grant = (await api.get('/v1/oauth/grants', { token: owner.token })).body.data.find(
      (g: any) => g.clientId === tokens.clientId,
    );

    const member = await api.post('/v1/team/members', {
      token: owner.token,
      body: { email: `m-${Date.now()}@example.com`, password: 'member password 1', role: 'member' },
    });
    const memberLogin = await api.post('/v1/auth/login', {
      body: { email: member.body.email ?? member.body.user?.email, password: 'member password 1' },
    });
    expect((await api.delete(`/v1/oauth/grants/${grant.id}`, { token: memberLogin.body.session.token })).status).toBe(
      403,
    );
    expect((await api.delete(`/v1/oauth/grants/${grant.id}`, { token: tokens.access_token })).status).toBe(401);

    expect((await api.delete(`/v1/oauth/grants/${grant.id}`, { token: owner.token })).status).toBe(204);
    const after = await onOther();
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('invalid_credential');
    const refresh = await tokenRequest(other.url, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.clientId,
    });
    expect(refresh.body.error).toBe('invalid_grant');
    expect((await api.delete(`/v1/oauth/grants/${grant.id}`, { token: owner.token })).status).toBe(404);
  });

  it('are revocable by their client (RFC 7009), and another client cannot revoke them', async () => {
    const tokens = await agentFlow(agentA, ['agent:config:read']);
    const intruder = await agentFlow(agentA, ['agent:config:read']);
    const revoke = (token: string, clientId: string) =>
      fetch(`${t.url}/oauth/token/revocation`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: clientId }),
      });
    expect((await revoke(tokens.access_token, intruder.clientId)).status).toBe(200);
    expect(
      (await api.post(`/v1/agents/${agentA}/mcp`, { token: tokens.access_token, body: rpc, headers: mcpHeaders }))
        .status,
    ).toBe(200);
    expect((await revoke(tokens.access_token, tokens.clientId)).status).toBe(200);
    expect(
      (await api.post(`/v1/agents/${agentA}/mcp`, { token: tokens.access_token, body: rpc, headers: mcpHeaders }))
        .status,
    ).toBe(401);
  });

  it('act as the agent key: spend through the same charge, rate limit and audit, naming the OAuth client', async () => {
    const tokens = await agentFlow(agentA, ['agent:trigger']);
    const conn = await connectMcp(t.url, `/v1/agents/${agentA}/mcp`, tokens.access_token);
    const run = await callTool(conn, 'trigger_agent', { message: 'hello over OAuth' });
    expect(run.isError).toBeFalsy();
    await conn.close();
    const grant = (await api.get('/v1/oauth/grants', { token: owner.token })).body.data.find(
      (g: any) => g.clientId === tokens.clientId,
    );
    const logs = (await api.get('/v1/logs?limit=100', { token: owner.token })).body.data;
    const triggered = logs.find((l: any) => l.action === 'agent.triggered' && l.actor.type === 'oauth');
    expect(triggered).toMatchObject({
      actor: { type: 'oauth', id: grant.id },
      details: { oauthClient: { id: tokens.clientId, name: 'Test client' } },
    });
    expect(
      logs.some(
        (l: any) => l.action === 'oauth.grant_created' && l.target.id === grant.id && l.actor.id === owner.userId,
      ),
    ).toBe(true);
    const ledger = await t.deps.db('credit_ledger').where({ key_id: grant.id });
    expect(ledger).toHaveLength(1);
  });

  it('are stored only as hashes, with sealed payloads', async () => {
    const tokens = await agentFlow(agentB, ['agent:config:read']);
    const rows = await t.deps.db('oauth_store').select('*');
    const dump = JSON.stringify(rows);
    for (const secret of [tokens.access_token, tokens.refresh_token, tokens.clientId])
      expect(dump).not.toContain(secret);
    const hash = createHash('sha256').update(tokens.access_token).digest('hex');
    expect(rows.some((r) => r.model === 'AccessToken' && r.id_hash === hash)).toBe(true);
  });
});
