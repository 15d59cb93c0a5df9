import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, type Client } from '../helpers/http.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import { createAccountKey } from '../helpers/keys.js';
import { callTool, connectMcp, toolNames, type McpConnection } from '../helpers/mcp.js';

const ACCOUNT_TOOLS = [
  'create_agent',
  'create_draft',
  'get_account_stats',
  'get_agent',
  'get_api_key',
  'get_api_key_usage',
  'get_usage',
  'get_webhook_stats',
  'list_agents',
  'list_api_keys',
  'list_contacts',
  'list_conversations',
  'list_inboxes',
  'list_webhooks',
  'send_message',
  'trigger_agent',
  'update_agent',
];

let t: TestContext;
let api: Client;
let owner: SetupAccount;
let other: SetupAccount;
let agentId: string;
let otherAgentId: string;
const open: McpConnection[] = [];

async function connect(token: string) {
  const conn = await connectMcp(t.url, '/v1/mcp', token);
  open.push(conn);
  return conn;
}
const keyWith = async (scopes: string[], extra: Record<string, unknown> = {}) =>
  (await createAccountKey(api, owner.token, { scopes, ...extra })).key;

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  const made = await setupAccount(t, { agent: { name: 'Support', config: { autoReply: 'hello' } } });
  const theirs = await setupAccount(t, { name: 'Other', agent: { name: 'Theirs' } });
  [owner, other, agentId, otherAgentId] = [made, theirs, made.agentId, theirs.agentId];
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await t.close();
});

describe('account MCP: tool lists by scope', () => {
  it('shows every account tool to a session (sessions are not limited by scopes)', async () => {
    expect(await toolNames(await connect(owner.token))).toEqual(ACCOUNT_TOOLS);
  });

  it('lets a member session in with every tool, as REST does (sessions are capped at member level, not by scopes)', async () => {
    const email = `member-${Date.now()}@example.com`;
    const member = await api.post('/v1/team/members', {
      token: owner.token,
      body: { email, password: 'member password 1', role: 'member' },
    });
    expect(member.status).toBe(201);
    const login = await api.post('/v1/auth/login', { body: { email, password: 'member password 1' } });
    expect(login.status).toBe(200);
    expect(await toolNames(await connect(login.body.session.token))).toEqual(ACCOUNT_TOOLS);
  });

  it('refuses a deactivated key on the very next MCP request with 401', async () => {
    const created = await createAccountKey(api, owner.token, { scopes: ['read:agents'] });
    expect(await toolNames(await connect(created.key))).toEqual(['get_agent', 'list_agents']);
    expect((await api.post(`/v1/api_keys/${created.id}/deactivate`, { token: owner.token })).status).toBe(200);
    const res = await api.post('/v1/mcp', {
      token: created.key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('key_deactivated');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('shows only what the key scopes allow, wildcards included', async () => {
    expect(await toolNames(await connect(await keyWith(['read:agents'])))).toEqual(['get_agent', 'list_agents']);
    expect(await toolNames(await connect(await keyWith(['read:billing', 'read:account'])))).toEqual([
      'get_account_stats',
      'get_usage',
    ]);
    expect(await toolNames(await connect(await keyWith(['*:agents'])))).toEqual([
      'create_agent',
      'get_agent',
      'list_agents',
      'trigger_agent',
      'update_agent',
    ]);
    expect(await toolNames(await connect(await keyWith(['read:*'])))).toEqual([
      'get_account_stats',
      'get_agent',
      'get_api_key',
      'get_api_key_usage',
      'get_usage',
      'get_webhook_stats',
      'list_agents',
      'list_api_keys',
      'list_contacts',
      'list_conversations',
      'list_inboxes',
      'list_webhooks',
    ]);
    expect(await toolNames(await connect(await keyWith(['write:messages', 'messages:send'])))).toEqual([
      'create_draft',
      'send_message',
    ]);
  });

  it('answers a call to a tool the key lacks with a tool error naming the scope, and does nothing', async () => {
    const token = await keyWith(['read:agents']);
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_agent', arguments: { name: 'Sneaky' } },
    };
    const res = await api.post('/v1/mcp', {
      token,
      body: call,
      headers: { accept: 'application/json, text/event-stream' },
    });
    // An API key cannot be stepped up: the model reads why (an OAuth token gets the 403 step-up instead,
    // test/integration/mcp-scope-refusals.test.ts).
    expect(res.status).toBe(200);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(JSON.stringify(res.body)).toContain('"isError":true');
    expect(JSON.stringify(res.body)).toContain('insufficient_scope: This credential lacks the scope write:agents');
    const list = await api.get('/v1/agents', { token: owner.token });
    expect(list.body.data.map((a: { name: string }) => a.name)).not.toContain('Sneaky');
  });
});

describe('account MCP: agent tools', () => {
  it('lists, reads, creates and updates agents through the same rules as REST', async () => {
    const conn = await connect(await keyWith(['read:agents', 'write:agents']));
    const listed = await callTool(conn, 'list_agents', { limit: 10 });
    expect(listed.structuredContent.data.map((a: { id: string }) => a.id)).toEqual([agentId]);
    expect(listed.structuredContent).toMatchObject({ hasMore: false, nextCursor: null });

    const got = await callTool(conn, 'get_agent', { agentId });
    expect(got.structuredContent).toMatchObject({ id: agentId, name: 'Support', config: { autoReply: 'hello' } });

    const created = await callTool(conn, 'create_agent', { name: 'Sales', config: { autoReply: 'buy now' } });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent.id).toMatch(/^agt_/);

    const updated = await callTool(conn, 'update_agent', {
      agentId: created.structuredContent.id,
      status: 'paused',
      config: { tone: 'warm' },
    });
    expect(updated.structuredContent).toMatchObject({
      status: 'paused',
      config: { autoReply: 'buy now', tone: 'warm' },
    });
    const rest = await api.get(`/v1/agents/${created.structuredContent.id}`, { token: owner.token });
    expect(rest.body).toMatchObject({
      name: 'Sales',
      status: 'paused',
      config: { autoReply: 'buy now', tone: 'warm' },
    });
  });

  it("answers not_found for another account's agent and validation errors as tool errors", async () => {
    const conn = await connect(owner.token);
    const foreign = await callTool(conn, 'get_agent', { agentId: otherAgentId });
    expect(foreign.isError).toBe(true);
    expect(foreign.structuredContent.error.code).toBe('not_found');
    const empty = await callTool(conn, 'update_agent', { agentId });
    expect(empty.isError).toBe(true);
    expect(empty.structuredContent.error.code).toBe('validation_error');
    const badType = await callTool(conn, 'create_agent', { name: 42 });
    expect(badType.isError).toBe(true);
    const badLimit = await callTool(conn, 'list_agents', { limit: 1000 });
    expect(badLimit.isError).toBe(true);
  });

  it("trigger_agent charges the account key, respects its spend cap, and refuses another account's agent", async () => {
    const key = await keyWith(['trigger:agents'], { spendCapCredits: 5 });
    const conn = await connect(key);
    const before = (await api.get('/v1/billing', { token: owner.token })).body.creditsBalance;
    const first = await callTool(conn, 'trigger_agent', { agentId, message: 'hi there' });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent.run).toMatchObject({ agentId, status: 'queued' });
    const second = await callTool(conn, 'trigger_agent', { agentId, message: 'again' });
    expect(second.structuredContent.error.code).toBe('spend_cap_exceeded');
    expect((await api.get('/v1/billing', { token: owner.token })).body.creditsBalance).toBe(before - 5);
    const foreign = await callTool(await connect(owner.token), 'trigger_agent', {
      agentId: otherAgentId,
      message: 'hi',
    });
    expect(foreign.structuredContent.error.code).toBe('not_found');
    const missing = await callTool(conn, 'trigger_agent', { agentId });
    expect(missing.isError).toBe(true);
  });

  it('get_account_stats returns the same counts as GET /v1/stats', async () => {
    const conn = await connect(await keyWith(['read:account']));
    const res = await callTool(conn, 'get_account_stats');
    expect(res.isError).toBeFalsy();
    const rest = await api.get('/v1/stats', { token: owner.token });
    const { generatedAt: _a, ...mcpCounts } = res.structuredContent;
    const { generatedAt: _b, ...restCounts } = rest.body;
    expect(mcpCounts).toEqual(restCounts);
  });

  it('get_usage returns the balance and plan', async () => {
    const conn = await connect(await keyWith(['read:billing']));
    const res = await callTool(conn, 'get_usage');
    expect(res.structuredContent).toMatchObject({ plan: 'free', creditsBalance: expect.any(Number) });
  });
});

describe('account MCP: messaging, inboxes and webhooks', () => {
  let inboxId: string;

  beforeAll(async () => {
    const inbox = await api.post('/v1/inboxes', {
      token: owner.token,
      body: { agentId, channel: 'email', address: 'support@acme.example' },
    });
    if (inbox.status !== 201) throw new Error(`inbox: ${inbox.status} ${JSON.stringify(inbox.body)}`);
    inboxId = inbox.body.id;
  });

  it('create_draft writes a draft without charging; send_message charges the key and respects its spend cap', async () => {
    const key = await keyWith(['write:messages', 'messages:send', 'read:messages', 'read:billing'], {
      spendCapCredits: 1,
    });
    const conn = await connect(key);
    const before = (await callTool(conn, 'get_usage')).structuredContent.creditsBalance;

    const draft = await callTool(conn, 'create_draft', {
      inboxId,
      to: 'ann@example.com',
      subject: 'Hi',
      text: 'Hello Ann',
    });
    expect(draft.isError).toBeFalsy();
    expect(draft.structuredContent).toMatchObject({ status: 'draft', to: 'ann@example.com' });
    expect((await callTool(conn, 'get_usage')).structuredContent.creditsBalance).toBe(before);

    const sent = await callTool(conn, 'send_message', { messageId: draft.structuredContent.id });
    expect(sent.isError).toBeFalsy();
    expect(sent.structuredContent.status).toBe('queued');
    expect((await callTool(conn, 'get_usage')).structuredContent.creditsBalance).toBe(before - 1);

    const again = await callTool(conn, 'send_message', { messageId: draft.structuredContent.id });
    expect(again.structuredContent.error.code).toBe('conflict');

    const second = await callTool(conn, 'create_draft', { inboxId, to: 'bob@example.com', text: 'Hello Bob' });
    const capped = await callTool(conn, 'send_message', { messageId: second.structuredContent.id });
    expect(capped.isError).toBe(true);
    expect(capped.structuredContent.error.code).toBe('spend_cap_exceeded');
    expect((await callTool(conn, 'get_usage')).structuredContent.creditsBalance).toBe(before - 1);
    const rest = await api.get(`/v1/messages/${second.structuredContent.id}`, { token: owner.token });
    expect(rest.body.status).toBe('draft');

    const contacts = await callTool(await connect(await keyWith(['read:contacts'])), 'list_contacts');
    expect(contacts.structuredContent.data.map((c: { email: string }) => c.email).sort()).toEqual([
      'ann@example.com',
      'bob@example.com',
    ]);

    const conversations = await callTool(conn, 'list_conversations', { agentId });
    expect(conversations.structuredContent.data.length).toBeGreaterThanOrEqual(2);
  });

  it('rejects a draft to an address the inbox channel cannot reach, as a tool error', async () => {
    const conn = await connect(owner.token);
    const res = await callTool(conn, 'create_draft', { inboxId, to: '+15551234567', text: 'x' });
    expect(res.isError).toBe(true);
    expect(res.structuredContent.error.code).toBe('validation_error');
  });

  it('list_inboxes and list_webhooks show this account only, and never a webhook secret', async () => {
    const hook = await api.post('/v1/webhooks', {
      token: owner.token,
      body: { url: 'https://hooks.example.com/in', events: ['message.received'] },
    });
    expect(hook.status).toBe(201);
    const otherHook = await api.post('/v1/webhooks', {
      token: other.token,
      body: { url: 'https://hooks.example.com/other', events: ['message.sent'] },
    });
    expect(otherHook.status).toBe(201);
    const conn = await connect(await keyWith(['read:inboxes', 'read:webhooks']));
    const inboxes = await callTool(conn, 'list_inboxes');
    expect(inboxes.structuredContent.data.map((i: { id: string }) => i.id)).toEqual([inboxId]);
    const hooks = await callTool(conn, 'list_webhooks');
    expect(hooks.structuredContent.data.map((h: { id: string }) => h.id)).toEqual([hook.body.id]);
    expect(JSON.stringify(hooks)).not.toContain(hook.body.secret);
  });
});
