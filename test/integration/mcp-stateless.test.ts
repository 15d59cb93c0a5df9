import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, type Client } from '../helpers/http.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import { createAccountKey, createAgent, createAgentKey, ALL_AGENT_SCOPES } from '../helpers/keys.js';
import { connectMcp, toolNames, AGENT_TOOLS } from '../helpers/mcp.js';
import { startServer } from '../../src/http/server.js';
import { RawConnection } from '../helpers/raw-http.js';

// The stateless MCP revision (2026-07-28) over raw HTTP, as its pages describe the wire (docs/mcp-2026.md), on the
// same URLs that keep answering the initialize era's SDK client.

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw-http-test', version: '1.0.0' },
};

let t: TestContext;
let api: Client;
let owner: SetupAccount;
let other: SetupAccount;
let agentA: string;
let agentB: string;
let otherAgent: string;
let keyA: string;

type Message = { jsonrpc: '2.0'; id?: unknown; method: string; params?: Record<string, unknown> };

type Json = Record<string, unknown>;
const request = (method: string, params: Json = {}, meta: Json = META): Message => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params: { ...params, _meta: meta },
});

/** The headers the revision requires, derived from the body; `headers` overrides them (null removes one). */
function headersFor(body: unknown, headers: Record<string, string | null> = {}): Record<string, string> {
  const message = (Array.isArray(body) ? body[0] : body) as Message;
  const derived: Record<string, string | null> = {
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': message.method,
    ...(typeof message.params?.name === 'string' ? { 'mcp-name': message.params.name } : {}),
  };
  const merged = { ...derived, ...headers };
  return Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== null));
}

function post(path: string, token: string | undefined, body: unknown, headers: Record<string, string | null> = {}) {
  return api.post(path, { token, body, headers: headersFor(body, headers) });
}
const agentPath = (agentId: string) => `/v1/agents/${agentId}/mcp`;
const callTool = (name: string, args: Record<string, unknown> = {}) => request('tools/call', { name, arguments: args });

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  const alpha = { name: 'Alpha', config: { autoReply: 'alpha here' } };
  const made = await setupAccount(t, { agent: alpha, agentKey: { scopes: ALL_AGENT_SCOPES } });
  owner = made;
  [agentA, keyA] = [made.agentId, made.agentKey.key];
  agentB = await createAgent(t, owner.accountId, 'Beta');
  const theirs = await setupAccount(t, { name: 'Other', agent: { name: 'Theirs' } });
  other = theirs;
  otherAgent = theirs.agentId;
});
afterAll(async () => {
  await t.close();
});

describe('stateless MCP: server/discover', () => {
  it('answers discover on both endpoints: versions of both eras, capabilities, identity, caching hints', async () => {
    const agent = await post(agentPath(agentA), keyA, request('server/discover'));
    expect(agent.status).toBe(200);
    expect(agent.headers.get('mcp-session-id')).toBeNull();
    expect(agent.body).toMatchObject({ jsonrpc: '2.0', id: 1 });
    const result = agent.body.result;
    expect(result.resultType).toBe('complete');
    expect(result.supportedVersions).toEqual(expect.arrayContaining([VERSION, '2025-11-25', '2025-06-18']));
    expect(result.capabilities.tools).toBeDefined();
    expect(result.instructions).toMatch(/exactly one Switchboard agent/);
    expect(result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'switchboard-agent' });
    expect(result).toMatchObject({ cacheScope: 'private' });
    expect(result.ttlMs).toBeGreaterThanOrEqual(0);

    const account = await post('/v1/mcp', owner.token, request('server/discover'));
    expect(account.status).toBe(200);
    const accountServer = account.body.result._meta['io.modelcontextprotocol/serverInfo'];
    expect(accountServer).toMatchObject({ name: 'switchboard-account' });
  });
});

describe('stateless MCP: tools/list', () => {
  it('lists the same tools as the initialize era for the same credential, with resultType and caching', async () => {
    const all = await post(agentPath(agentA), keyA, request('tools/list'));
    expect(all.status).toBe(200);
    expect(all.body.result).toMatchObject({ resultType: 'complete', cacheScope: 'private' });
    const names = all.body.result.tools.map((tool: { name: string }) => tool.name).sort();
    expect(names).toEqual(AGENT_TOOLS);
    for (const tool of all.body.result.tools) expect(tool.outputSchema?.type, tool.name).toBe('object');

    const readKey = (await createAgentKey(api, owner.token, agentA, { scopes: ['agent:config:read'] })).key;
    const read = await post(agentPath(agentA), readKey, request('tools/list'));
    expect(read.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['get_agent_config']);

    // The SDK client on the same URL (the initialize era) sees the very same definitions.
    const conn = await connectMcp(t.url, agentPath(agentA), keyA);
    try {
      expect(await toolNames(conn)).toEqual(AGENT_TOOLS);
      const { tools } = await conn.client.listTools();
      const byName = (list: Array<{ name: string }>) => Object.fromEntries(list.map((x) => [x.name, x]));
      expect(byName(all.body.result.tools)).toEqual(byName(tools));
    } finally {
      await conn.close();
    }
  });
});

describe('stateless MCP: tools/call', () => {
  it('runs a read tool, and a write tool only with its scope (a tool error naming the scope otherwise)', async () => {
    const read = await post(agentPath(agentA), keyA, callTool('get_agent_config'));
    expect(read.status).toBe(200);
    expect(read.body.result).toMatchObject({ resultType: 'complete', structuredContent: { id: agentA } });
    expect(read.body.result.isError).toBeFalsy();
    expect(read.body.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'switchboard-agent' });

    const readKey = (await createAgentKey(api, owner.token, agentA, { scopes: ['agent:config:read'] })).key;
    const hack = callTool('update_agent_config', { config: { autoReply: 'hacked' } });
    const refused = await post(agentPath(agentA), readKey, hack);
    expect(refused.status).toBe(200);
    expect(refused.body.result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'insufficient_scope', details: { requiredScope: 'agent:config:write' } } },
    });
    expect((await api.get(`/v1/agents/${agentA}`, { token: owner.token })).body.config.autoReply).toBe('alpha here');

    const written = await post(agentPath(agentA), keyA, callTool('update_agent_config', { config: { tone: 'warm' } }));
    expect(written.body.result.isError).toBeFalsy();
    expect(written.body.result.structuredContent.config).toMatchObject({ autoReply: 'alpha here', tone: 'warm' });
    expect((await api.get(`/v1/agents/${agentA}`, { token: owner.token })).body.config.tone).toBe('warm');
  });

  it('accepts a Base64-encoded Mcp-Name, and answers an unknown tool with -32602', async () => {
    const encoded = `=?base64?${Buffer.from('get_agent_config').toString('base64')}?=`;
    const read = await post(agentPath(agentA), keyA, callTool('get_agent_config'), { 'mcp-name': encoded });
    expect(read.body.result.structuredContent.id).toBe(agentA);

    const unknown = await post(agentPath(agentA), keyA, callTool('drop_tables'));
    expect(unknown.body).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(unknown.body.error.message).toContain('drop_tables');
  });

  it('keeps tenants apart exactly as the initialize era does', async () => {
    // Another agent's endpoint, an account key, a per-agent key on the account endpoint: 403 before any MCP.
    for (const [path, token] of [
      [agentPath(agentB), keyA],
      [agentPath(agentA), (await createAccountKey(api, owner.token, { scopes: ['read:agents'] })).key],
      ['/v1/mcp', keyA],
    ] as const) {
      const res = await post(path, token, request('tools/list'));
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('agent_forbidden');
    }
    const anonymous = await post(agentPath(agentA), undefined, request('server/discover'));
    expect(anonymous.status).toBe(401);

    // Another account's agent through the account endpoint: not_found, and nothing triggered there.
    const foreign = await post('/v1/mcp', owner.token, callTool('get_agent', { agentId: otherAgent }));
    expect(foreign.body.result.structuredContent.error.code).toBe('not_found');
    const foreignTrigger = callTool('trigger_agent', { agentId: otherAgent, message: 'hi' });
    const trigger = await post('/v1/mcp', owner.token, foreignTrigger);
    expect(trigger.body.result.structuredContent.error.code).toBe('not_found');
    const theirs = await api.get(`/v1/agents/${otherAgent}/activity`, { token: other.token });
    expect(theirs.body.data.filter((a: { kind: string }) => a.kind === 'run.queued')).toHaveLength(0);
  });
});

describe("stateless MCP: bad input is refused with the revision's error, and runs nothing", () => {
  it('refuses every malformed trigger_agent request, then runs exactly the one well-formed request', async () => {
    const agent = await createAgent(t, owner.accountId, 'Guarded', { autoReply: 'guarded' });
    const key = (await createAgentKey(api, owner.token, agent, { scopes: ALL_AGENT_SCOPES })).key;
    const path = agentPath(agent);
    const trigger = callTool('trigger_agent', { message: 'must not run' });
    const balance = async () => (await api.get('/v1/billing', { token: owner.token })).body.creditsBalance as number;
    const before = await balance();

    const withMeta = (meta: Json) => request('tools/call', trigger.params, meta);
    const V = 'io.modelcontextprotocol/protocolVersion';
    const FUTURE = '2027-01-01';
    const CAPS = 'io.modelcontextprotocol/clientCapabilities';
    type Case = [what: string, body: unknown, headers: Record<string, string | null>, status: number, code: number];
    const cases: Case[] = [
      ['_meta version differs from the header', withMeta({ ...META, [V]: '2025-11-25' }), {}, 400, -32020],
      ['legacy header, modern _meta', trigger, { 'mcp-protocol-version': '2025-11-25' }, 400, -32020],
      ['no MCP-Protocol-Version header', trigger, { 'mcp-protocol-version': null }, 400, -32020],
      ['Mcp-Method differs from the body', trigger, { 'mcp-method': 'tools/list' }, 400, -32020],
      ['no Mcp-Method header', trigger, { 'mcp-method': null }, 400, -32020],
      ['Mcp-Name differs from the body', trigger, { 'mcp-name': 'get_agent_config' }, 400, -32020],
      ['no Mcp-Name header', trigger, { 'mcp-name': null }, 400, -32020],
      ['no clientCapabilities in _meta', withMeta({ [V]: VERSION }), {}, 400, -32602],
      ['malformed clientCapabilities', withMeta({ ...META, [CAPS]: { sampling: 5 } }), {}, 400, -32602],
      ['unsupported version', withMeta({ ...META, [V]: FUTURE }), { 'mcp-protocol-version': FUTURE }, 400, -32022],
      ['a batch', [trigger, trigger], {}, 400, -32600],
      ['a notification', { jsonrpc: '2.0', method: 'tools/call', params: trigger.params }, {}, 400, -32600],
      ['a null id', { ...trigger, id: null }, {}, 400, -32600],
      ['an unknown method', request('resources/list'), {}, 404, -32601],
      ['initialize in the stateless era', request('initialize'), {}, 404, -32601],
      ['ping, removed by the revision', request('ping'), {}, 404, -32601],
    ];
    for (const [what, body, headers, status, code] of cases) {
      const res = await post(path, key, body, headers);
      expect({ what, status: res.status, code: res.body.error?.code }).toEqual({ what, status, code });
      expect(res.body.jsonrpc).toBe('2.0');
      const idless = Array.isArray(body) || !('id' in (body as object)) || (body as Message).id === null;
      expect(res.body.id).toBe(idless ? undefined : 1);
      if (code === -32022) {
        const supported = expect.arrayContaining([VERSION, '2025-11-25']);
        expect(res.body.error.data).toEqual({ supported, requested: FUTURE });
      }
    }

    // The sentinel: one well-formed call, answered after every refusal, is the only run and the only charge.
    const ran = await post(path, key, callTool('trigger_agent', { message: 'the one that runs' }));
    expect(ran.body.result.structuredContent.run).toMatchObject({ agentId: agent, status: 'queued' });
    const activity = await api.get(`/v1/agents/${agent}/activity`, { token: owner.token });
    expect(activity.body.data.filter((a: { kind: string }) => a.kind === 'run.queued')).toHaveLength(1);
    const conversations = await api.get(`/v1/agents/${agent}/conversations`, { token: owner.token });
    expect(JSON.stringify(conversations.body)).not.toContain('must not run');
    expect(await balance()).toBe(before - 5);
  });

  it('still serves the initialize era on the same URL', async () => {
    const conn = await connectMcp(t.url, agentPath(agentA), keyA);
    try {
      expect(conn.client.getServerVersion()?.name).toBe('switchboard-agent');
      expect(await toolNames(conn)).toEqual(AGENT_TOOLS);
    } finally {
      await conn.close();
    }
  });
});

describe('stateless MCP: `_meta` values of the wrong type', () => {
  it('a progressToken neither a string nor an integer: 400 and -32602 on both endpoints, connection kept', async () => {
    const endpoints: Array<[string, string]> = [
      [agentPath(agentA), keyA],
      ['/v1/mcp', owner.token],
    ];
    const raw = (message: Message, token: string, path: string) => ({
      method: 'POST',
      target: path,
      body: JSON.stringify(message),
      headers: [
        ['Content-Type', 'application/json'],
        ['Authorization', `Bearer ${token}`],
        ...Object.entries(headersFor(message)),
      ] as Array<[string, string]>,
    });
    for (const [path, token] of endpoints) {
      const conn = await RawConnection.open(t.url);
      try {
        for (const progressToken of [1.5, null, { a: 1 }]) {
          for (const message of [request('tools/list'), callTool('get_agent_config')]) {
            const where = `${path} ${message.method} ${JSON.stringify(progressToken)}`;
            message.params!._meta = { ...META, progressToken };
            await conn.send(raw(message, token, path));
            const refused = await conn.read(30_000);
            expect(refused.status, where).toBe(400);
            expect(refused.json, where).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
            await conn.send(raw(request('server/discover'), token, path));
            expect((await conn.read(30_000)).status, where).toBe(200);
          }
        }
      } finally {
        conn.close();
      }
    }
  });

  it('any other `_meta` field the server cannot read is refused the same way, never left unanswered', async () => {
    const conn = await RawConnection.open(t.url);
    try {
      const message = request('tools/list', {}, { ...META, 'io.modelcontextprotocol/related-task': 5 });
      await conn.send({
        method: 'POST',
        target: agentPath(agentA),
        body: JSON.stringify(message),
        headers: [
          ['Content-Type', 'application/json'],
          ['Authorization', `Bearer ${keyA}`],
          ...Object.entries(headersFor(message)),
        ],
      });
      const refused = await conn.read(30_000);
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
    } finally {
      conn.close();
    }
  });
});

describe('stateless MCP: subscriptions/listen', () => {
  it('acknowledges an empty subset as the first event, holds the stream open, and ends it when the server drains', async () => {
    // A second instance of the same service, so that draining it leaves the test's own server running.
    const instance = await startServer(t.deps, 0, '127.0.0.1', { publicUrl: t.url });
    const body = { ...request('subscriptions/listen', { notifications: { toolsListChanged: true } }), id: 7 };
    const res = await fetch(`${instance.url}${agentPath(agentA)}`, {
      method: 'POST',
      headers: { ...headersFor(body), authorization: `Bearer ${keyA}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('\n\n')) text += (await reader.read()).value ?? '';
    const first = JSON.parse(/^data: (.*)$/m.exec(text)![1]!);
    // Tools never change for a credential: nothing requested is honoured, and the acknowledgment says so.
    expect(first).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: {}, _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } },
    });

    // Still open after a later request on the same instance has been answered (the sentinel).
    let ended = false;
    const rest = (async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
      ended = true;
    })();
    const sentinel = await fetch(`${instance.url}${agentPath(agentA)}`, {
      method: 'POST',
      headers: {
        ...headersFor(request('tools/list')),
        authorization: `Bearer ${keyA}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(request('tools/list')),
    });
    expect(sentinel.status).toBe(200);
    expect(ended).toBe(false);

    // Draining ends the stream at once, with nothing after the acknowledgment but keep-alive comments.
    const closed = instance.close();
    await rest;
    expect(text.split('\n\n').filter((e) => e.startsWith('data:'))).toHaveLength(1);
    instance.server.closeAllConnections();
    await closed;
  });

  it('refuses a filter that is not an object with -32602 and opens nothing', async () => {
    const res = await post(agentPath(agentA), keyA, request('subscriptions/listen', { notifications: 'all' }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32602);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });
});
