import { z } from 'zod';
import { requireScope } from '../auth/access.js';
import { agentInput, agentPatch, agentResponse } from '../agents/agents.schema.js';
import { createAgent, getAgent, listAgents, updateAgent } from '../agents/agents.service.js';
import { billingResponse } from '../billing/billing.schema.js';
import { getBilling } from '../billing/billing.service.js';
import { contactResponse } from '../contacts/contacts.schema.js';
import { listContacts } from '../contacts/contacts.service.js';
import { inboxResponse } from '../inboxes/inboxes.schema.js';
import { listInboxes } from '../inboxes/inboxes.service.js';
import {
  chatInput,
  conversationListQuery,
  conversationResponse,
  draftInput,
  messageResponse,
} from '../messages/messages.schema.js';
import { createDraft, listConversations, sendMessage } from '../messages/messages.service.js';
import { pageOf } from '../platform/output.js';
import { pageQuery } from '../platform/pagination.js';
import { parseInput } from '../platform/validation.js';
import { runQueuedResponse } from '../runs/runs.schema.js';
import { triggerAgent } from '../runs/runs.service.js';
import { statsResponse } from '../stats/stats.schema.js';
import { getAccountStats } from '../stats/stats.service.js';
import { getWebhookStats } from '../webhooks/endpoint-stats.service.js';
import { statsQuery, webhookResponse, webhookStatsResponse } from '../webhooks/webhooks.schema.js';
import { listWebhookSubscriptions } from '../webhooks/webhooks.service.js';
import { additive, defineTool, destructive, readOnly, type McpTool } from './tools.js';
import { idOf, text } from '../platform/input.js';
import { keyResponse, toKeyResponse } from '../keys/keys.schema.js';
import { getKey, listKeys } from '../keys/keys.service.js';
import { getKeyUsage, usageQuery, usageResponse } from '../keys/key-usage.service.js';
import { mapPage } from '../platform/pagination.js';

// The account MCP server: one tool per account route it mirrors, with that route's access and service.
// Arguments are parsed again with the route's own schema, so every input rule lives in one place.

const paging = {
  limit: z.number().int().min(1).max(100).optional().describe('Page size (1-100, default 20); newest first'),
  cursor: text().optional().describe('The nextCursor of a previous page, to read further'),
};
const agentId = text().describe('The agent id (agt_…), as returned by list_agents');
const config = z.record(text(), z.unknown());
const agentFilteredPage = pageQuery.extend({ agentId: text().max(100).optional() }).strict();

const listAgentsTool = defineTool({
  name: 'list_agents',
  title: 'List agents',
  description:
    'Lists the agents of the account (id, name, status, config), newest first, one page at a time ({data, hasMore, nextCursor}).',
  access: requireScope('read:agents'),
  input: z.object(paging),
  output: pageOf(agentResponse),
  annotations: readOnly,
  run: (ctx, args) => listAgents(ctx.deps, ctx.principal, parseInput(pageQuery, args)),
});

const getAgentTool = defineTool({
  name: 'get_agent',
  title: 'Get an agent',
  description: 'Returns one agent of the account by id: name, status (active or paused) and config.',
  access: requireScope('read:agents'),
  input: z.object({ agentId }),
  output: agentResponse,
  annotations: readOnly,
  run: (ctx, args) => getAgent(ctx.deps, ctx.principal, args.agentId),
});

const createAgentTool = defineTool({
  name: 'create_agent',
  title: 'Create an agent',
  description:
    'Creates a new agent in the account. config is optional: autoReply (string) for the built-in runtime, or runtime {type:"http", url} to run it on your own endpoint. Returns the new agent with its id.',
  access: requireScope('write:agents'),
  input: z.object({
    name: text().describe('A name for the agent (1-200 characters)'),
    config: config.optional().describe('Initial config, e.g. {"autoReply": "Hello!"}'),
  }),
  output: agentResponse,
  annotations: additive,
  run: (ctx, args) => createAgent(ctx.deps, ctx, parseInput(agentInput, args)),
});

const updateAgentTool = defineTool({
  name: 'update_agent',
  title: 'Update an agent',
  description:
    'Changes an agent: name, status ("paused" stops it from running, "active" resumes it) and/or config as a JSON merge patch (keys sent replace, null removes, omitted keys stay). Send at least one of them. Returns the updated agent.',
  access: requireScope('write:agents'),
  input: z.object({
    agentId,
    name: text().optional().describe('A new name'),
    status: z.enum(['active', 'paused']).optional().describe('"paused" or "active"'),
    config: config.optional().describe('A JSON merge patch for the config'),
  }),
  output: agentResponse,
  annotations: destructive,
  run: (ctx, { agentId: id, ...patch }) => updateAgent(ctx.deps, ctx, id, parseInput(agentPatch, patch)),
});

const listContactsTool = defineTool({
  name: 'list_contacts',
  title: 'List contacts',
  description:
    'Lists the contacts of the account (id, name, email, phone, linked agent, metadata), newest first, one page at a time.',
  access: requireScope('read:contacts'),
  input: z.object(paging),
  output: pageOf(contactResponse),
  annotations: readOnly,
  run: (ctx, args) => listContacts(ctx.deps, ctx.principal, parseInput(pageQuery, args)),
});

const listConversationsTool = defineTool({
  name: 'list_conversations',
  title: 'List conversations',
  description:
    'Lists conversations (email, SMS and chat threads between an agent and a contact), newest first, each with its latest messages. Pass agentId to see one agent’s conversations.',
  access: requireScope('read:messages'),
  input: z.object({ ...paging, agentId: agentId.optional() }),
  output: pageOf(conversationResponse),
  annotations: readOnly,
  run: (ctx, args) => {
    const { agentId: id, ...page } = parseInput(conversationListQuery, args);
    return listConversations(ctx.deps, ctx.principal, page, { agentId: id });
  },
});

const createDraftTool = defineTool({
  name: 'create_draft',
  title: 'Create a message draft',
  description:
    'Writes a draft message from one of the account’s inboxes to a recipient (an email address for an email inbox, an E.164 phone number for an SMS inbox). Nothing is sent and nothing is charged: call send_message with the returned id to send it.',
  access: requireScope('write:messages'),
  input: z.object({
    inboxId: text().describe('The inbox to send from (inb_…), see list_inboxes'),
    to: text().describe('Recipient: an email address or an E.164 phone number, matching the inbox channel'),
    subject: text().optional().describe('Subject line (email), one line'),
    text: text().describe('The message body, plain text'),
  }),
  output: messageResponse,
  annotations: additive,
  run: (ctx, args) => createDraft(ctx.deps, ctx, parseInput(draftInput, args)),
});

const sendMessageTool = defineTool({
  name: 'send_message',
  title: 'Send a draft (spends credits)',
  description:
    'Sends a draft created with create_draft as a real email or SMS. It costs credits (email 1, SMS 2) and cannot be undone; it may fail with spend_cap_exceeded, insufficient_credits or rate_limited, in which case nothing was sent. Returns the message with status "queued".',
  access: requireScope('messages:send'),
  input: z.object({ messageId: text().describe('The draft’s id (msg_…)') }),
  output: messageResponse,
  annotations: { ...destructive, openWorldHint: true },
  run: (ctx, args) => sendMessage(ctx.deps, ctx, args.messageId),
});

const listInboxesTool = defineTool({
  name: 'list_inboxes',
  title: 'List inboxes',
  description:
    'Lists the account’s inboxes (email addresses and SMS numbers agents send from and receive on), newest first. Pass agentId to see one agent’s inboxes.',
  access: requireScope('read:inboxes'),
  input: z.object({ ...paging, agentId: agentId.optional() }),
  output: pageOf(inboxResponse),
  annotations: readOnly,
  run: (ctx, args) => {
    const { agentId: id, ...page } = parseInput(agentFilteredPage, args);
    return listInboxes(ctx.deps, ctx.principal, page, { agentId: id });
  },
});

const listWebhooksTool = defineTool({
  name: 'list_webhooks',
  title: 'List webhook subscriptions',
  description:
    'Lists the account’s webhook subscriptions (url, subscribed events, status active or disabled), newest first. Secrets are never shown.',
  access: requireScope('read:webhooks'),
  input: z.object(paging),
  output: pageOf(webhookResponse),
  annotations: readOnly,
  run: (ctx, args) => listWebhookSubscriptions(ctx.deps, ctx.principal.accountId, parseInput(pageQuery, args)),
});

const getWebhookStatsTool = defineTool({
  name: 'get_webhook_stats',
  title: 'Get a webhook endpoint’s health',
  description:
    'Returns the delivery health of one webhook subscription over a window (1h, 24h or 7d; default 24h): attempts, success rate, p50/p95 duration in ms, counts by error code and by HTTP status class, last success and last failure times, and the current consecutive failures (attempts, and exhausted deliveries toward auto-disable).',
  access: requireScope('read:webhooks'),
  input: z.object({
    webhookId: idOf('wh').describe('The subscription id (wh_…), see list_webhooks'),
    window: z.enum(['1h', '24h', '7d']).optional().describe('The window: 1h, 24h (default) or 7d'),
  }),
  output: webhookStatsResponse,
  annotations: readOnly,
  run: (ctx, { webhookId, ...query }) =>
    getWebhookStats(ctx.deps, ctx.principal.accountId, webhookId, parseInput(statsQuery, query).window),
});

const getUsageTool = defineTool({
  name: 'get_usage',
  title: 'Get credit balance and usage',
  description:
    'Returns the account plan, its credit balance and the credits used this month by reason (email, sms, agent triggers).',
  access: requireScope('read:billing'),
  input: z.object({}),
  output: billingResponse,
  annotations: readOnly,
  run: (ctx) => getBilling(ctx.deps, ctx.principal.accountId),
});

const keyId = idOf('key').describe('The key id (key_…), see list_api_keys');

const listApiKeysTool = defineTool({
  name: 'list_api_keys',
  title: 'List API keys',
  description:
    'Lists the account’s keys, newest first: metadata only (never a secret): scopes, status, spend cap with what remains this period, its refill (daily or monthly) and next refill, and named rate limits. agentId filters to one agent’s keys.',
  access: requireScope('read:api_keys'),
  input: z.object({ ...paging, agentId: text().max(100).optional().describe('Only this agent’s per-agent keys') }),
  output: pageOf(keyResponse),
  annotations: readOnly,
  run: async (ctx, args) => {
    const query = parseInput(agentFilteredPage, args);
    return mapPage(await listKeys(ctx.deps, ctx.principal.accountId, query, { agentId: query.agentId }), toKeyResponse);
  },
});

const getApiKeyTool = defineTool({
  name: 'get_api_key',
  title: 'Get an API key',
  description:
    'Returns one key’s metadata (never its secret): spendCapCredits, spentCredits and remainingCredits this period, spendCapInterval and nextRefillAt, rateLimits.',
  access: requireScope('read:api_keys'),
  input: z.object({ keyId }),
  output: keyResponse,
  annotations: readOnly,
  run: async (ctx, args) => toKeyResponse(await getKey(ctx.deps, ctx.principal.accountId, args.keyId)),
});

const getApiKeyUsageTool = defineTool({
  name: 'get_api_key_usage',
  title: 'Get an API key’s usage',
  description:
    'Returns one key’s requests per hour by outcome (valid, rate_limited, spend_cap_exceeded, key_expired, key_deactivated, ip_not_allowed, insufficient_scope, agent_forbidden, admin_session_required) and their totals; from/to are ISO 8601 times (default the last 24 hours).',
  access: requireScope('read:api_keys'),
  input: z.object({
    keyId,
    from: text().optional().describe('ISO 8601 start (rounded down to the hour)'),
    to: text().optional().describe('ISO 8601 end (default now)'),
  }),
  output: usageResponse,
  annotations: readOnly,
  run: (ctx, { keyId: id, ...query }) =>
    getKeyUsage(ctx.deps, ctx.principal.accountId, id, parseInput(usageQuery, query)),
});

const getAccountStatsTool = defineTool({
  name: 'get_account_stats',
  title: 'Get account statistics',
  description:
    'Returns current counts of everything the account holds (agents, contacts, conversations, messages by status, inboxes, webhooks, …).',
  access: requireScope('read:account'),
  input: z.object({}),
  output: statsResponse,
  annotations: readOnly,
  run: (ctx) => getAccountStats(ctx.deps, ctx.principal.accountId),
});

const triggerAgentTool = defineTool({
  name: 'trigger_agent',
  title: 'Send an agent a chat message (spends credits)',
  description:
    'Sends a chat message to an agent and queues a run that answers it; each call costs credits (one agent trigger) and may fail with spend_cap_exceeded, insufficient_credits, rate_limited or agent_paused, in which case nothing was charged. Returns the queued run {id, status}.',
  access: requireScope('trigger:agents'),
  input: z.object({ agentId, message: text().describe('The chat message for the agent') }),
  output: runQueuedResponse,
  annotations: { ...destructive, openWorldHint: true },
  run: (ctx, args) =>
    triggerAgent(ctx.deps, ctx, args.agentId, parseInput(chatInput, { message: args.message }).message),
});

export const accountServer = {
  name: 'switchboard-account',
  instructions:
    'Tools for one Switchboard account: agents, contacts, conversations, drafts, inboxes, webhooks, API keys, usage and stats. ' +
    'You see only the tools your key allows. Reads are free; send_message and trigger_agent spend credits.',
};

export const accountTools: McpTool[] = [
  listAgentsTool,
  getAgentTool,
  createAgentTool,
  updateAgentTool,
  listContactsTool,
  listConversationsTool,
  createDraftTool,
  sendMessageTool,
  listInboxesTool,
  listWebhooksTool,
  getWebhookStatsTool,
  getUsageTool,
  getAccountStatsTool,
  listApiKeysTool,
  getApiKeyTool,
  getApiKeyUsageTool,
  triggerAgentTool,
];
