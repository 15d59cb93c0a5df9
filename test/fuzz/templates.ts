import type { Rand } from './random.js';
import type { World } from './world.js';

// A valid body for each route that takes one, so that mutations reach past the first check of the schema.
// Keys are "METHOD /path" as the router declares them; a route missing here gets random bodies only.

type Template = (w: World, r: Rand) => Record<string, unknown>;

const iso = (r: Rand) => new Date(Date.now() + r.int(-5, 400) * 86_400_000).toISOString();

const mcpCall = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name, arguments: args },
});

// MCP events: a list page and a poll from now (cursor null answers at once, so no mutation holds the request).
// events/stream is left out: it holds its response open until the client leaves.
const eventsCalls = (r: Rand) => [
  { jsonrpc: '2.0', id: 4, method: 'events/list', params: {} },
  {
    jsonrpc: '2.0',
    id: 5,
    method: 'events/poll',
    params: { name: r.pick(['message.received', 'agent.updated']), arguments: {}, cursor: null, timeoutMs: 0 },
  },
];

const accountTool = (w: World, r: Rand) => {
  const own = w.ids.agents[0]!;
  return r.pick([
    mcpCall('list_agents', { limit: 2, cursor: r.pick(w.cursors) }),
    mcpCall('get_agent', { agentId: own }),
    mcpCall('create_agent', { name: 'm', config: { autoReply: 'hi' } }),
    mcpCall('update_agent', { agentId: own, config: { k: 'v' } }),
    mcpCall('list_contacts', { limit: 5 }),
    mcpCall('list_conversations', { agentId: own }),
    mcpCall('create_draft', { inboxId: w.ids.inboxes[0], to: 'x@example.com', text: 'hello' }),
    mcpCall('send_message', { messageId: w.ids.messages[0] }),
    mcpCall('list_inboxes', {}),
    mcpCall('list_webhooks', {}),
    mcpCall('get_usage', {}),
    mcpCall('get_account_stats', {}),
    mcpCall('trigger_agent', { agentId: own, message: 'hi' }),
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
    ...eventsCalls(r),
    {
      jsonrpc: '2.0',
      id: 3,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    },
  ]);
};

const agentTool = (_w: World, r: Rand) =>
  r.pick([
    mcpCall('get_agent_config', {}),
    mcpCall('get_agent_conversations', { limit: 3 }),
    mcpCall('get_agent_activity', { limit: 3 }),
    mcpCall('update_agent_config', { config: { autoReply: 'x', nested: { a: [1] } } }),
    mcpCall('trigger_agent', { message: 'hi' }),
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
    ...eventsCalls(r),
  ]);

const smtp = (w: World) => ({
  host: '93.184.216.34',
  port: 587,
  secure: false,
  username: 'u',
  password: 'p-123456',
  from: `Fuzz <${w.ownerEmail}>`,
});
const sms = () => ({ url: 'https://93.184.216.34/sms?key=k', headers: { 'X-Api-Key': 'k' }, from: '+14155550100' });

export const TEMPLATES: Record<string, Template> = {
  'POST /v1/auth/signup': (_w, r) => ({
    accountName: 'Fuzz',
    email: `f${r.int(0, 1e9)}@example.com`,
    password: 'correct horse battery',
  }),
  'POST /v1/auth/login': (w) => ({ email: w.ownerEmail, password: w.password }),
  'PATCH /v1/account': (_w, r) => ({ agentKeyMinting: r.pick(['admins', 'account_keys']) }),
  'POST /v1/team/members': (_w, r) => ({
    email: `m${r.int(0, 1e9)}@example.com`,
    password: 'member password 1',
    role: r.pick(['admin', 'member']),
  }),
  'POST /v1/agents': () => ({ name: 'fuzz', config: { autoReply: 'hi', nested: { list: [1, 'two', null] } } }),
  'PATCH /v1/agents/:agentId': (_w, r) => ({
    name: 'renamed',
    status: r.pick(['active', 'paused']),
    config: { autoReply: 'x', drop: null },
  }),
  'POST /v1/agents/:agentId/chat': () => ({ message: 'hello' }),
  'POST /v1/contacts': (_w, r) => ({
    name: 'c',
    email: `c${r.int(0, 1e9)}@example.com`,
    phone: '+14155550123',
    metadata: { tier: 'gold', n: 1 },
  }),
  'PATCH /v1/contacts/:contactId': () => ({ name: 'd', phone: null, metadata: { a: [1, 2] } }),
  'POST /v1/inboxes': (w, r) => ({
    agentId: w.ids.agents[0],
    channel: 'email',
    address: `in${r.int(0, 1e9)}@example.com`,
    name: 'n',
  }),
  'PATCH /v1/inboxes/:inboxId': (_w, r) => ({ name: 'x', address: `y${r.int(0, 1e9)}@example.com` }),
  'POST /v1/inbound/:inboxId': () => ({ from: 'sender@example.com', subject: 's', text: 't' }),
  'POST /v1/messages': (w) => ({ inboxId: w.ids.inboxes[0], to: 'x@example.com', subject: 's', text: 't' }),
  'POST /v1/messages/:messageId/send': () => ({}),
  'POST /v1/integrations/:provider': (w, r) => (r.chance(0.5) ? smtp(w) : sms()),
  'POST /v1/domains': (_w, r) => ({ name: `d${r.int(0, 1e6)}.fuzz.example.com` }),
  'POST /v1/mcp': accountTool,
  'POST /v1/agents/:agentId/mcp': agentTool,
  'POST /v1/api_keys': (_w, r) => ({
    name: 'k',
    scopes: ['read:agents', 'read:*'],
    expiresAt: iso(r),
    allowedIps: ['10.0.0.0/8', '::1'],
    spendCapCredits: 10,
  }),
  'PATCH /v1/api_keys/:keyId': (_w, r) => ({
    name: 'k2',
    allowedIps: ['192.0.2.1'],
    expiresAt: iso(r),
    spendCapCredits: null,
  }),
  'POST /v1/agents/:agentId/api-keys': () => ({
    name: 'ak',
    scopes: ['agent:config:read', 'agent:trigger'],
    spendCapCredits: 5,
  }),
  'POST /v1/billing/credits': (_w, r) => ({ amount: r.int(1, 100) }),
  'POST /v1/webhooks': (_w, r) =>
    r.chance(0.3)
      ? { kind: 'poll', events: ['message.received', 'inbox.created'] }
      : {
          url: 'https://93.184.216.34/hook',
          events: ['message.received', 'inbox.created'],
          description: 'd',
          legacySecret: 'legacy-secret-0123456789',
          filter: {
            channel: { $in: ['sms', 'email'] },
            $or: [{ agentId: { $startsWith: 'agt_' } }, { $not: { id: null } }],
          },
        },
  'POST /v1/webhooks/:webhookId/poll/commit': (w, r) => ({
    cursor: Buffer.from(JSON.stringify({ w: r.pick(w.ids.webhooks), p: r.int(0, 3) })).toString('base64url'),
  }),
  'PATCH /v1/webhooks/:webhookId': (_w, r) => ({
    url: 'https://93.184.216.34/hook2',
    events: ['message.sent'],
    description: null,
    signatureScheme: r.pick(['hmac-sha256', 'ed25519']),
    legacySecret: null,
    filter: { direction: { $ne: 'inbound' }, subject: { $exists: true } },
  }),
  'POST /v1/webhooks/:webhookId/rotate-secret': (_w, r) => ({ signatureScheme: r.pick(['hmac-sha256', 'ed25519']) }),
  'POST /v1/webhooks/:webhookId/enable': (_w, r) => ({ recoverSince: iso(r) }),
  'POST /v1/portal-links': (_w, r) => ({
    tenant: 'cust-1',
    events: ['message.received'],
    expiresInSeconds: r.int(60, 86400),
  }),
  'POST /v1/portal/webhooks': (_w, r) => ({
    url: 'https://93.184.216.34/portal',
    events: ['message.received'],
    signatureScheme: r.pick(['hmac-sha256', 'ed25519']),
  }),
  'PATCH /v1/portal/webhooks/:webhookId': () => ({ url: 'https://93.184.216.34/portal2' }),
};

/** Query parameters a list may take, with plausible values. */
export function plausibleQuery(w: World, r: Rand): Array<[string, string]> {
  const all: Array<[string, string]> = [
    ['limit', String(r.int(1, 100))],
    ['cursor', r.pick(w.cursors)],
    ['agentId', w.ids.agents[0]!],
    ['status', r.pick(['draft', 'sent', 'received', 'queued', 'failed'])],
    ['direction', r.pick(['inbound', 'outbound'])],
    ['inboxId', w.ids.inboxes[0]!],
    ['conversationId', 'conv_abc'],
    ['deliveryId', w.ids.deliveries[0]!],
  ];
  return all.filter(() => r.chance(0.3));
}
