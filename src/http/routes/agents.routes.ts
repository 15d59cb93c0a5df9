import { requireScope } from '../../auth/access.js';
import { listActivity, listAgentActivity } from '../../agents/activity.service.js';
import { activityResponse } from '../../activity/activity.schema.js';
import { agentInput, agentPatch, agentResponse } from '../../agents/agents.schema.js';
import { createAgent, getAgent, listAgents, updateAgent } from '../../agents/agents.service.js';
import { contactResponse } from '../../contacts/contacts.schema.js';
import { listAgentContacts } from '../../contacts/contacts.service.js';
import { chatInput, conversationResponse, messageResponse } from '../../messages/messages.schema.js';
import { listAgentConversations, listAgentDrafts } from '../../messages/messages.service.js';
import type { Deps } from '../../app/deps.js';
import { pageOf } from '../../platform/output.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { runQueuedResponse, runResponse } from '../../runs/runs.schema.js';
import { getRun, triggerAgent } from '../../runs/runs.service.js';
import { callerOf, principalOf } from '../middleware/authenticate.js';
import { text } from '../../platform/input.js';
import { idempotent, type ApiRouter } from '../router.js';

const activityQuery = pageQuery.extend({ agentId: text().max(100).optional() }).strict();
const tag = 'Agents';

const agentExample = {
  id: 'agt_5Vb0QmLr8TzXc1Nh2Kp4',
  name: 'Support',
  status: 'active',
  config: { autoReply: 'Thanks, we will get back to you.' },
  createdAt: '2026-11-01T09:30:00.000Z',
  updatedAt: '2026-11-01T09:30:00.000Z',
};

// The agents collection is account-only; /v1/agents/:agentId/** is also open to that agent's own per-agent key,
// with the agent scope named in the second argument (interface: per-agent REST surface).
export function registerAgentRoutes(api: ApiRouter, deps: Deps) {
  api.get(
    '/v1/agents',
    requireScope('read:agents'),
    { operationId: 'listAgents', summary: 'List agents', tag, query: pageQuery, response: pageOf(agentResponse) },
    async (ctx) => {
      ctx.body = await listAgents(deps, principalOf(ctx), parseInput(pageQuery, ctx.query));
    },
  );

  api.post(
    '/v1/agents',
    requireScope('write:agents'),
    {
      operationId: 'createAgent',
      summary: 'Create an agent',
      tag,
      body: agentInput,
      response: agentResponse,
      status: 201,
      examples: {
        request: { name: 'Support', config: { autoReply: 'Thanks, we will get back to you.' } },
        response: agentExample,
      },
    },
    async (ctx) => {
      ctx.status = 201;
      ctx.body = await createAgent(deps, callerOf(ctx), parseInput(agentInput, ctx.request.body));
    },
    idempotent(),
  );

  api.get(
    '/v1/agents/:agentId',
    requireScope('read:agents', { scope: 'agent:config:read' }),
    {
      operationId: 'getAgent',
      summary: 'Get an agent',
      tag,
      response: agentResponse,
      examples: { response: agentExample },
    },
    async (ctx) => {
      ctx.body = await getAgent(deps, principalOf(ctx), ctx.params.agentId!);
    },
  );

  api.patch(
    '/v1/agents/:agentId',
    requireScope('write:agents', { scope: 'agent:config:write' }),
    {
      operationId: 'updateAgent',
      summary: 'Update an agent',
      tag,
      body: agentPatch,
      response: agentResponse,
      description:
        '`config` is a JSON merge patch (RFC 7396). A per-agent key may send only `config` (else 403 insufficient_scope).',
      examples: { request: { config: { autoReply: null, greeting: 'Hello' } } },
    },
    async (ctx) => {
      ctx.body = await updateAgent(deps, callerOf(ctx), ctx.params.agentId!, parseInput(agentPatch, ctx.request.body));
    },
  );

  api.get(
    '/v1/agents/:agentId/contacts',
    requireScope('read:contacts', { scope: 'agent:conversations:read' }),
    {
      operationId: 'listAgentContacts',
      summary: "List an agent's contacts",
      tag,
      query: pageQuery,
      response: pageOf(contactResponse),
    },
    async (ctx) => {
      ctx.body = await listAgentContacts(deps, principalOf(ctx), ctx.params.agentId!, parseInput(pageQuery, ctx.query));
    },
  );

  api.get(
    '/v1/agents/:agentId/drafts',
    requireScope('read:messages', { scope: 'agent:conversations:read' }),
    {
      operationId: 'listAgentDrafts',
      summary: "List an agent's drafts",
      tag,
      query: pageQuery,
      response: pageOf(messageResponse),
    },
    async (ctx) => {
      ctx.body = await listAgentDrafts(deps, principalOf(ctx), ctx.params.agentId!, parseInput(pageQuery, ctx.query));
    },
  );

  api.get(
    '/v1/agents/:agentId/conversations',
    requireScope('read:messages', { scope: 'agent:conversations:read' }),
    {
      operationId: 'listAgentConversations',
      summary: "List an agent's conversations",
      tag,
      query: pageQuery,
      response: pageOf(conversationResponse),
    },
    async (ctx) => {
      ctx.body = await listAgentConversations(
        deps,
        principalOf(ctx),
        ctx.params.agentId!,
        parseInput(pageQuery, ctx.query),
      );
    },
  );

  api.get(
    '/v1/agents/:agentId/activity',
    requireScope('read:activity', { scope: 'agent:activity:read' }),
    {
      operationId: 'listAgentActivity',
      summary: "List an agent's activity",
      tag,
      query: pageQuery,
      response: pageOf(activityResponse),
    },
    async (ctx) => {
      ctx.body = await listAgentActivity(deps, principalOf(ctx), ctx.params.agentId!, parseInput(pageQuery, ctx.query));
    },
  );

  api.get(
    '/v1/agents/:agentId/runs/:runId',
    requireScope('read:activity', { scope: 'agent:activity:read' }),
    { operationId: 'getAgentRun', summary: 'Get a run', tag, response: runResponse },
    async (ctx) => {
      ctx.body = await getRun(deps, principalOf(ctx), ctx.params.agentId!, ctx.params.runId!);
    },
  );

  api.post(
    '/v1/agents/:agentId/chat',
    requireScope('trigger:agents', { scope: 'agent:trigger' }),
    {
      operationId: 'triggerAgent',
      summary: 'Trigger an agent (chat)',
      tag,
      body: chatInput,
      response: runQueuedResponse,
      status: 202,
      spends: true,
      errors: ['agent_paused'],
      description: "Queues a run; its reply appears in the agent's conversations and activity. Costs 5 credits.",
      examples: { request: { message: 'What is the status of order 1042?' } },
    },
    async (ctx) => {
      const { message } = parseInput(chatInput, ctx.request.body);
      ctx.status = 202;
      ctx.body = await triggerAgent(deps, callerOf(ctx), ctx.params.agentId!, message);
    },
    idempotent(),
  );

  // Account-wide timeline: a bulk route, so no agent scope (per-agent keys get 403 agent_forbidden).
  api.get(
    '/v1/activity',
    requireScope('read:activity'),
    {
      operationId: 'listActivity',
      summary: 'List the account-wide activity',
      tag,
      query: activityQuery,
      response: pageOf(activityResponse),
    },
    async (ctx) => {
      const { agentId, ...page } = parseInput(activityQuery, ctx.query);
      ctx.body = await listActivity(deps, principalOf(ctx), page, { agentId });
    },
  );
}
