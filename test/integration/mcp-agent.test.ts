import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, createAgentKey, ALL_AGENT_SCOPES } from '../helpers/keys.js';
import { callTool, connectMcp, toolNames, type McpConnection, AGENT_TOOLS } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentA: string;
let agentB: string;
let keyA: string;
let keyB: string;
const open: McpConnection[] = [];

async function connect(agentId: string, token: string) {
  const conn = await connectMcp(t.url, `/v1/agents/${agentId}/mcp`, token);
  open.push(conn);
  return conn;
}

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  agentA = await createAgent(t, owner.accountId, 'Alpha', { autoReply: 'alpha here' });
  agentB = await createAgent(t, owner.accountId, 'Beta', { autoReply: 'beta here' });
  keyA = (await createAgentKey(api, owner.token, agentA, { scopes: ALL_AGENT_SCOPES })).key;
  keyB = (await createAgentKey(api, owner.token, agentB, { scopes: ALL_AGENT_SCOPES })).key;
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await t.close();
});

describe('per-agent MCP: tool lists by scope', () => {
  it('lists exactly the five agent tools for a key holding every agent scope, with annotations and titles', async () => {
    const conn = await connect(agentA, keyA);
    expect(conn.client.getServerVersion()?.name).toBe('switchboard-agent');
    expect(conn.client.getInstructions()).toMatch(/exactly one Switchboard agent/);
    const { tools } = await conn.client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(AGENT_TOOLS);
    const byName = Object.fromEntries(tools.map((x) => [x.name, x]));
    for (const name of ['get_agent_config', 'get_agent_conversations', 'get_agent_activity']) {
      expect(byName[name]!.annotations).toMatchObject({ readOnlyHint: true });
    }
    for (const name of ['update_agent_config', 'trigger_agent']) {
      expect(byName[name]!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    }
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
    }
    expect(byName.trigger_agent!.inputSchema.required).toEqual(['message']);
    expect(byName.update_agent_config!.inputSchema.required).toEqual(['config']);
  });

  it('lists only the read tools for a key with the default scopes, and only get_agent_config for that one scope', async () => {
    const readKey = (await createAgentKey(api, owner.token, agentA)).key;
    expect(await toolNames(await connect(agentA, readKey))).toEqual([
      'get_agent_activity',
      'get_agent_config',
      'get_agent_conversations',
    ]);
    const oneKey = (await createAgentKey(api, owner.token, agentA, { scopes: ['agent:config:read'] })).key;
    expect(await toolNames(await connect(agentA, oneKey))).toEqual(['get_agent_config']);
    const writeKey = (
      await createAgentKey(api, owner.token, agentA, { scopes: ['agent:config:write', 'agent:trigger'] })
    ).key;
    expect(await toolNames(await connect(agentA, writeKey))).toEqual(['trigger_agent', 'update_agent_config']);
  });

  it('answers a call to an unlisted tool with a tool error naming the missing scope, and changes nothing', async () => {
    const readKey = (await createAgentKey(api, owner.token, agentA, { scopes: ['agent:config:read'] })).key;
    const params = { name: 'update_agent_config', arguments: { config: { autoReply: 'hacked' } } };
    const res = await api.post(`/v1/agents/${agentA}/mcp`, {
      token: readKey,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params },
      headers: { accept: 'application/json, text/event-stream' },
    });
    // An API key cannot be stepped up (an OAuth token gets the 403, test/integration/mcp-scope-refusals.test.ts).
    expect(res.status).toBe(200);
    expect(res.headers.get('www-authenticate')).toBeNull();
    const conn = await connect(agentA, readKey);
    const result = await callTool(conn, 'update_agent_config', { config: { autoReply: 'x' } });
    expect(result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'insufficient_scope', details: { requiredScope: 'agent:config:write' } } },
    });
    const agent = await api.get(`/v1/agents/${agentA}`, { token: owner.token });
    expect(agent.body.config.autoReply).toBe('alpha here');
  });
});

describe('per-agent MCP: tools', () => {
  it('get_agent_config returns this agent as structured content and as JSON text', async () => {
    const conn = await connect(agentA, keyA);
    const res = await callTool(conn, 'get_agent_config');
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toMatchObject({
      id: agentA,
      name: 'Alpha',
      status: 'active',
      config: { autoReply: 'alpha here' },
    });
    expect(JSON.parse(res.content[0]!.text!)).toEqual(res.structuredContent);
  });

  it('update_agent_config merge-patches the config, and REST shows the change afterwards', async () => {
    const conn = await connect(agentA, keyA);
    const res = await callTool(conn, 'update_agent_config', { config: { greeting: 'hi', nested: { a: 1 } } });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent.config).toEqual({ autoReply: 'alpha here', greeting: 'hi', nested: { a: 1 } });
    const removed = await callTool(conn, 'update_agent_config', { config: { greeting: null } });
    expect(removed.structuredContent.config).toEqual({ autoReply: 'alpha here', nested: { a: 1 } });
    const rest = await api.get(`/v1/agents/${agentA}`, { token: owner.token });
    expect(rest.body.config).toEqual({ autoReply: 'alpha here', nested: { a: 1 } });
  });

  it('gives an error result, not a crash, for invalid arguments, and the server keeps answering', async () => {
    const conn = await connect(agentA, keyA);
    const wrongType = await callTool(conn, 'update_agent_config', { config: 'not an object' });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.content[0]!.text).toMatch(/config/);
    const missing = await callTool(conn, 'update_agent_config', {});
    expect(missing.isError).toBe(true);
    const badRuntime = await callTool(conn, 'update_agent_config', { config: { runtime: { type: 'ftp' } } });
    expect(badRuntime.isError).toBe(true);
    expect(badRuntime.structuredContent.error.code).toBe('validation_error');
    const unknown = await callTool(conn, 'list_agents');
    expect(unknown.isError).toBe(true);
    expect((await callTool(conn, 'get_agent_config')).structuredContent.id).toBe(agentA);
  });
});

const texts = (res: { structuredContent?: any }) =>
  res.structuredContent.data.flatMap((c: { recentMessages: Array<{ text: string }> }) =>
    c.recentMessages.map((m) => m.text),
  );

describe('per-agent MCP: trigger, conversations and activity', () => {
  it('trigger_agent charges credits, respects the spend cap, and the reply shows in conversations and activity', async () => {
    await t.startWorkers();
    const agent = await createAgent(t, owner.accountId, 'Capped', { autoReply: 'capped reply' });
    const key = (await createAgentKey(api, owner.token, agent, { scopes: ALL_AGENT_SCOPES, spendCapCredits: 5 })).key;
    const conn = await connect(agent, key);
    const balance = async () => (await api.get('/v1/billing', { token: owner.token })).body.creditsBalance as number;
    const before = await balance();

    const first = await callTool(conn, 'trigger_agent', { message: 'first question' });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent.run).toMatchObject({ agentId: agent, status: 'queued' });
    expect(first.structuredContent.run.id).toMatch(/^run_/);
    expect(await balance()).toBe(before - 5);

    const second = await callTool(conn, 'trigger_agent', { message: 'second question' });
    expect(second.isError).toBe(true);
    expect(second.structuredContent.error).toMatchObject({ code: 'spend_cap_exceeded' });
    expect(await balance()).toBe(before - 5);
    const keys = await api.get(`/v1/api_keys?agentId=${agent}`, { token: owner.token });
    expect(keys.body.data[0]).toMatchObject({ spendCapCredits: 5, spentCredits: 5 });

    const conversations = await waitFor(
      () => callTool(conn, 'get_agent_conversations', { limit: 5 }),
      (r) => texts(r).includes('capped reply'),
    );
    expect(texts(conversations)).toEqual(expect.arrayContaining(['first question', 'capped reply']));
    expect(texts(conversations)).not.toContain('second question');
    const activity = await callTool(conn, 'get_agent_activity', { limit: 50 });
    const kinds = activity.structuredContent.data.map((a: { kind: string }) => a.kind);
    expect(kinds).toEqual(expect.arrayContaining(['run.queued']));
    expect(activity.structuredContent.data.every((a: { agentId: string }) => a.agentId === agent)).toBe(true);
    const limited = await callTool(conn, 'get_agent_activity', { limit: 1 });
    expect(limited.structuredContent.data).toHaveLength(1);
  });

  it('refuses to trigger a paused agent, as a tool error, and charges nothing', async () => {
    const agent = await createAgent(t, owner.accountId, 'Sleeper');
    const key = (await createAgentKey(api, owner.token, agent, { scopes: ['agent:trigger'] })).key;
    expect((await api.patch(`/v1/agents/${agent}`, { token: owner.token, body: { status: 'paused' } })).status).toBe(
      200,
    );
    const before = (await api.get('/v1/billing', { token: owner.token })).body.creditsBalance;
    const res = await callTool(await connect(agent, key), 'trigger_agent', { message: 'wake up' });
    expect(res.isError).toBe(true);
    expect(res.structuredContent.error.code).toBe('agent_paused');
    expect((await api.get('/v1/billing', { token: owner.token })).body.creditsBalance).toBe(before);
    const empty = await callTool(await connect(agent, key), 'trigger_agent', { message: '' });
    expect(empty.isError).toBe(true);
  });
});

describe('per-agent MCP: who may connect', () => {
  it("gives 403 agent_forbidden to a key on another agent's endpoint, and to account keys and sessions", async () => {
    await expect(connectMcp(t.url, `/v1/agents/${agentB}/mcp`, keyA)).rejects.toThrow(/agent_forbidden/);
    const raw = await api.post(`/v1/agents/${agentB}/mcp`, {
      token: keyA,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(raw.status).toBe(403);
    expect(raw.body.error.code).toBe('agent_forbidden');
    const accountKey = (
      await createAccountKey(api, owner.token, { scopes: ['read:agents', 'write:agents', 'trigger:agents'] })
    ).key;
    const asAccount = await api.post(`/v1/agents/${agentA}/mcp`, {
      token: accountKey,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(asAccount.status).toBe(403);
    expect(asAccount.body.error.code).toBe('agent_forbidden');
  });

  it('gives 403 to a per-agent key on the account endpoint', async () => {
    const raw = await api.post('/v1/mcp', { token: keyA, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(raw.status).toBe(403);
    expect(raw.body.error.code).toBe('agent_forbidden');
    await expect(connectMcp(t.url, '/v1/mcp', keyA)).rejects.toThrow(/agent_forbidden/);
  });

  it('keeps two clients with different keys apart under concurrent calls', async () => {
    const [a, b] = await Promise.all([connect(agentA, keyA), connect(agentB, keyB)]);
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0 ? { conn: a, id: agentA } : { conn: b, id: agentB },
    );
    const results = await Promise.all(
      calls.map(async ({ conn, id }) => ({ id, res: await callTool(conn, 'get_agent_config') })),
    );
    for (const { id, res } of results) expect(res.structuredContent.id).toBe(id);

    const chats = await Promise.all([
      callTool(a, 'trigger_agent', { message: 'only for alpha' }),
      callTool(b, 'trigger_agent', { message: 'only for beta' }),
      callTool(a, 'get_agent_conversations'),
      callTool(b, 'get_agent_activity'),
    ]);
    expect(chats.every((r) => !r.isError)).toBe(true);
    const [convA, convB, actA, actB] = await Promise.all([
      callTool(a, 'get_agent_conversations'),
      callTool(b, 'get_agent_conversations'),
      callTool(a, 'get_agent_activity'),
      callTool(b, 'get_agent_activity'),
    ]);
    expect(texts(convA)).toContain('only for alpha');
    expect(texts(convA)).not.toContain('only for beta');
    expect(texts(convB)).toContain('only for beta');
    expect(texts(convB)).not.toContain('only for alpha');
    expect(actA.structuredContent.data.every((x: { agentId: string }) => x.agentId === agentA)).toBe(true);
    expect(actB.structuredContent.data.every((x: { agentId: string }) => x.agentId === agentB)).toBe(true);
  });
});
