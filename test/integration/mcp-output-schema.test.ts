import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAgent, createAgentKey } from '../helpers/keys.js';
import { callTool, connectMcp, type McpConnection } from '../helpers/mcp.js';

// Every tool declares an outputSchema (the REST route's response schema) and every successful result's
// structuredContent matches the schema the server lists, checked here with ajv against the listed JSON Schema
// (draft-07, as the SDK emits it), not with the server's own zod schemas.

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentId: string;
const open: McpConnection[] = [];

async function connect(path: string, token: string) {
  const conn = await connectMcp(t.url, path, token);
  open.push(conn);
  return conn;
}

/** The listed outputSchema of every tool, compiled; fails when a listed tool has none. */
async function validatorsOf(conn: McpConnection): Promise<Map<string, ValidateFunction>> {
  const { tools } = await conn.client.listTools();
  expect(tools.filter((tool) => !tool.outputSchema).map((tool) => tool.name)).toEqual([]);
  return new Map(tools.map((tool) => [tool.name, ajv.compile(tool.outputSchema!)]));
}

type Done = Record<string, any>;

/**
 * Calls every listed tool once, in the order given (arguments may use the results of earlier calls), and checks
 * each result against its listed outputSchema.
 */
async function callEvery(conn: McpConnection, calls: Array<[string, (done: Done) => Record<string, unknown>]>) {
  const validators = await validatorsOf(conn);
  expect(calls.map(([name]) => name).sort()).toEqual([...validators.keys()].sort());
  const results: Done = {};
  for (const [name, args] of calls) {
    const result = await callTool(conn, name, args(results));
    expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
    const validate = validators.get(name)!;
    expect(validate(result.structuredContent) ? [] : validate.errors, name).toEqual([]);
    results[name] = result.structuredContent;
  }
  return results;
}

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  agentId = await createAgent(t, owner.accountId, 'Support', { autoReply: 'hello' });
  const contact = await api.post('/v1/contacts', {
    token: owner.token,
    body: { name: 'Ann', email: 'ann@example.com' },
  });
  if (contact.status !== 201) throw new Error(`contact: ${contact.status} ${JSON.stringify(contact.body)}`);
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await t.close();
});

describe('MCP outputSchema', () => {
  it('declares one on every per-agent tool, and every result matches it', async () => {
    const scopes = [
      'agent:config:read',
      'agent:conversations:read',
      'agent:activity:read',
      'agent:config:write',
      'agent:trigger',
    ];
    const key = (await createAgentKey(api, owner.token, agentId, { scopes })).key;
    const results = await callEvery(await connect(`/v1/agents/${agentId}/mcp`, key), [
      ['get_agent_config', () => ({})],
      ['update_agent_config', () => ({ config: { autoReply: 'Thanks' } })],
      ['trigger_agent', () => ({ message: 'Hello there' })],
      ['get_agent_conversations', () => ({ limit: 5 })],
      ['get_agent_activity', () => ({ limit: 5 })],
    ]);
    // The lists were not empty, so their item schemas were checked too.
    expect(results.get_agent_conversations.data.length).toBeGreaterThan(0);
    expect(results.get_agent_activity.data.length).toBeGreaterThan(0);
  });

  it('declares one on every account tool, and every result matches it', async () => {
    const inbox = await api.post('/v1/inboxes', {
      token: owner.token,
      body: { agentId, channel: 'email', address: 'support@acme.example' },
    });
    expect(inbox.status).toBe(201);
    const webhook = await api.post('/v1/webhooks', {
      token: owner.token,
      body: { url: 'https://93.184.216.34/hooks', events: ['message.received'] },
    });
    expect(webhook.status).toBe(201);
    const conn = await connect('/v1/mcp', owner.token);
    const results = await callEvery(conn, [
      ['create_agent', () => ({ name: 'Sales', config: { autoReply: 'Hi' } })],
      ['update_agent', (done) => ({ agentId: done.create_agent.id, status: 'paused' })],
      ['get_agent', () => ({ agentId })],
      ['create_draft', () => ({ inboxId: inbox.body.id, to: 'ann@example.com', subject: 'Hi', text: 'Hello Ann' })],
      ['send_message', (done) => ({ messageId: done.create_draft.id })],
      ['trigger_agent', () => ({ agentId, message: 'Hello there' })],
      ['list_agents', () => ({ limit: 5 })],
      ['list_contacts', () => ({})],
      ['list_conversations', () => ({ agentId })],
      ['list_inboxes', () => ({})],
      ['list_webhooks', () => ({})],
      ['get_webhook_stats', () => ({ webhookId: webhook.body.id, window: '1h' })],
      ['get_usage', () => ({})],
      ['get_account_stats', () => ({})],
      ['list_api_keys', () => ({})],
      ['get_api_key', (done) => ({ keyId: done.list_api_keys.data[0].id })],
      ['get_api_key_usage', (done) => ({ keyId: done.list_api_keys.data[0].id })],
    ]);
    for (const list of [
      'list_agents',
      'list_contacts',
      'list_conversations',
      'list_inboxes',
      'list_webhooks',
      'list_api_keys',
    ]) {
      expect(results[list].data.length, list).toBeGreaterThan(0);
    }
  });

  it('keeps tool errors working: an error result carries structuredContent.error, not the success shape', async () => {
    const conn = await connect('/v1/mcp', owner.token);
    const missing = await callTool(conn, 'get_agent', { agentId: 'agt_doesnotexist' });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent.error.code).toBe('not_found');
  });
});
