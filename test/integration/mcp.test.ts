import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { connectMcp, toolNames } from '../helpers/mcp.js';

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
});
afterAll(() => t.close());

describe('MCP transport', () => {
  it('answers GET and DELETE with 405 in the contract shape on both MCP paths', async () => {
    for (const path of ['/v1/mcp', '/v1/agents/agt_x/mcp']) {
      for (const method of ['get', 'delete'] as const) {
        const res = await api[method](path, { token: owner.token });
        expect(res.status).toBe(405);
        expect(res.body.error).toMatchObject({ code: 'method_not_allowed' });
      }
    }
  });

  it('answers 401 with WWW-Authenticate without a credential or with a bad one', async () => {
    const missing = await api.post('/v1/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('missing_credential');
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const bad = await api.post('/v1/agents/agt_x/mcp', {
      token: 'ca_agt_nope',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer /);
    await expect(connectMcp(t.url, '/v1/mcp')).rejects.toThrow();
  });

  it('answers a plain JSON-RPC POST statelessly with JSON, no session id, and the request id header', async () => {
    const res = await api.post('/v1/mcp', {
      token: owner.token,
      headers: { accept: 'application/json, text/event-stream', 'x-request-id': 'mcp-test-1' },
      body: { jsonrpc: '2.0', id: 7, method: 'tools/list' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.headers.get('x-request-id')).toBe('mcp-test-1');
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { tools: expect.any(Array) } });
  });

  it('answers an empty body, a non-JSON-RPC body, a wrong Accept and an unknown method without hanging or crashing', async () => {
    const headers = { accept: 'application/json, text/event-stream' };
    const empty = await api.post('/v1/mcp', { token: owner.token, headers });
    expect([400, 415]).toContain(empty.status);
    const notRpc = await api.post('/v1/mcp', { token: owner.token, headers, body: { hello: 'world' } });
    expect(notRpc.status).toBe(400);
    expect(notRpc.body.error).toBeDefined();
    const wrongAccept = await api.post('/v1/mcp', {
      token: owner.token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(wrongAccept.status).toBe(406);
    const unknownMethod = await api.post('/v1/mcp', {
      token: owner.token,
      headers,
      body: { jsonrpc: '2.0', id: 2, method: 'nope/nothing' },
    });
    expect(unknownMethod.body.error).toMatchObject({ code: -32601 });
    const after = await api.post('/v1/mcp', {
      token: owner.token,
      headers,
      body: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    });
    expect(after.status).toBe(200);
  });

  it('lets a session connect to the account endpoint but not to a per-agent endpoint', async () => {
    const conn = await connectMcp(t.url, '/v1/mcp', owner.token);
    expect(Array.isArray(await toolNames(conn))).toBe(true);
    await conn.close();
    const res = await api.post('/v1/agents/agt_x/mcp', {
      token: owner.token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('agent_forbidden');
  });
});
