import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAgent, createAgentKey } from '../helpers/keys.js';
import { callTool, connectMcp } from '../helpers/mcp.js';
import { obtainTokens } from '../helpers/oauth.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// A tools/call the credential lacks the scope for (contract §8, docs/mcp.md): an API key, which no client can
// step up, gets a tool result with isError naming the missing scope, which a model reads; an OAuth access token
// gets the MCP authorization spec's HTTP 403 step-up challenge. Nothing runs either way. The initialize era
// through the SDK's own client; the stateless era (2026-07-28) over raw HTTP, as docs/mcp-2026.md describes it.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentId: string;
let readKey: string;
let readToken: string;

const path = () => `/v1/agents/${agentId}/mcp`;
const hack = { name: 'update_agent_config', arguments: { config: { autoReply: 'hacked' } } };
const STATELESS = '2026-07-28';
const statelessCall = (token: string) =>
  api.post(path(), {
    token,
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        ...hack,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': STATELESS,
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'scope-test', version: '1.0.0' },
        },
      },
    },
    headers: {
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': STATELESS,
      'mcp-method': 'tools/call',
      'mcp-name': hack.name,
    },
  });
const unchanged = async () =>
  expect((await api.get(`/v1/agents/${agentId}`, { token: owner.token })).body.config.autoReply).toBe('as before');

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  agentId = await createAgent(t, owner.accountId, 'Scoped', { autoReply: 'as before' });
  readKey = (await createAgentKey(api, owner.token, agentId, { scopes: ['agent:config:read'] })).key;
  const choose = ['agent:config:read'];
  readToken = (
    await obtainTokens(t.url, {
      resource: `${t.url}${path()}`,
      scope: choose.join(' '),
      email: owner.email,
      password: owner.password,
      choose,
    })
  ).access_token;
});
afterAll(() => t?.close());

describe('an API key lacking the scope', () => {
  it('gets a tool result with isError naming the scope, through the SDK client (initialize era)', async () => {
    const conn = await connectMcp(t.url, path(), readKey);
    try {
      const result = await callTool(conn, hack.name, hack.arguments);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({
        error: {
          code: 'insufficient_scope',
          message: 'This credential lacks the scope agent:config:write',
          details: { requiredScope: 'agent:config:write' },
        },
      });
      expect(result.content[0]!.text).toBe('insufficient_scope: This credential lacks the scope agent:config:write');
    } finally {
      await conn.close();
    }
    await unchanged();
  });

  it('gets the same tool result in the stateless era, with HTTP 200', async () => {
    const res = await statelessCall(readKey);
    expect(res.status).toBe(200);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(res.body.result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'insufficient_scope', details: { requiredScope: 'agent:config:write' } } },
    });
    await unchanged();
  });
});

describe('an OAuth access token lacking the scope', () => {
  const challenge = () =>
    `Bearer error="insufficient_scope", scope="agent:config:write", resource_metadata="${t.url}/.well-known/oauth-protected-resource${path()}"`;

  it('gets the HTTP 403 step-up, which the SDK client sees as a failed request (initialize era)', async () => {
    const conn = await connectMcp(t.url, path(), readToken);
    try {
      await expect(callTool(conn, hack.name, hack.arguments)).rejects.toThrow(/403|insufficient_scope/);
    } finally {
      await conn.close();
    }
    await unchanged();
  });

  it('gets the HTTP 403 step-up naming the scope in the stateless era', async () => {
    const res = await statelessCall(readToken);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(challenge());
    expect(res.body.error).toMatchObject({
      code: 'insufficient_scope',
      details: { requiredScope: 'agent:config:write' },
    });
    await unchanged();
  });
});
