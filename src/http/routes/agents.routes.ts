import { requireScope } from '../../auth/access.js';
import { listActivity, listAgentActivity } from '../../activity/activity.service.js';
import { agentInput, agentPatch } from '../../agents/agents.schema.js';
import { createAgent, getAgent, listAgents, updateAgent } from '../../agents/agents.service.js';
import { listAgentContacts } from '../../contacts/contacts.service.js';
import { chatInput } from '../../messages/messages.schema.js';
import { listAgentConversations, listAgentDrafts } from '../../messages/messages.service.js';
import type { Deps } from '../../platform/deps.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { getRun, triggerAgent } from '../../runs/runs.service.js';
import { clientIp } from '../client-ip.js';
import { principalOf } from '../middleware/authenticate.js';
import { text } from '../../platform/input.js';
import { idempotent, type ApiRouter } from '../router.js';

const activityQuery = pageQuery.extend({ agentId: text().max(100).optional() }).strict();

// The agents collection is account-only; /v1/agents/:id/** is also open to that agent's own per-agent key,
// with the agent scope named in the second argument (interface: per-agent REST surface).
export function registerAgentRoutes(api: ApiRouter, deps: Deps) {
  const ip = (ctx: Parameters<typeof clientIp>[0]) => clientIp(ctx, deps.config.trustProxyHops);

  api.get('/v1/agents', requireScope('read:agents'), async (ctx) => {
    ctx.body = await listAgents(deps, principalOf(ctx), parseInput(pageQuery, ctx.query));
  });

  api.post('/v1/agents', requireScope('write:agents'), async (ctx) => {
    ctx.status = 201;
    ctx.body = await createAgent(deps, principalOf(ctx), parseInput(agentInput, ctx.request.body), ip(ctx));
  }, idempotent());

  api.get('/v1/agents/:id', requireScope('read:agents', { scope: 'agent:config:read' }), async (ctx) => {
    ctx.body = await getAgent(deps, principalOf(ctx), ctx.params.id!);
  });

  api.patch('/v1/agents/:id', requireScope('write:agents', { scope: 'agent:config:write' }), async (ctx) => {
    ctx.body = await updateAgent(deps, principalOf(ctx), ctx.params.id!, parseInput(agentPatch, ctx.request.body), ip(ctx));
  });

  api.get('/v1/agents/:id/contacts', requireScope('read:contacts', { scope: 'agent:conversations:read' }), async (ctx) => {
    ctx.body = await listAgentContacts(deps, principalOf(ctx), ctx.params.id!, parseInput(pageQuery, ctx.query));
  });

  api.get('/v1/agents/:id/drafts', requireScope('read:messages', { scope: 'agent:conversations:read' }), async (ctx) => {
    ctx.body = await listAgentDrafts(deps, principalOf(ctx), ctx.params.id!, parseInput(pageQuery, ctx.query));
  });

  api.get('/v1/agents/:id/conversations', requireScope('read:messages', { scope: 'agent:conversations:read' }), async (ctx) => {
    ctx.body = await listAgentConversations(deps, principalOf(ctx), ctx.params.id!, parseInput(pageQuery, ctx.query));
  });

  api.get('/v1/agents/:id/activity', requireScope('read:activity', { scope: 'agent:activity:read' }), async (ctx) => {
    ctx.body = await listAgentActivity(deps, principalOf(ctx), ctx.params.id!, parseInput(pageQuery, ctx.query));
  });

  api.get('/v1/agents/:id/runs/:runId', requireScope('read:activity', { scope: 'agent:activity:read' }), async (ctx) => {
    ctx.body = await getRun(deps, principalOf(ctx), ctx.params.id!, ctx.params.runId!);
  });

  api.post('/v1/agents/:id/chat', requireScope('trigger:agents', { scope: 'agent:trigger' }), async (ctx) => {
    const { message } = parseInput(chatInput, ctx.request.body);
    ctx.status = 202;
    ctx.body = await triggerAgent(deps, principalOf(ctx), ctx.params.id!, message, ip(ctx));
  }, idempotent());

  // Account-wide timeline: a bulk route, so no agent scope (per-agent keys get 403 agent_forbidden).
  api.get('/v1/activity', requireScope('read:activity'), async (ctx) => {
    const { agentId, ...page } = parseInput(activityQuery, ctx.query);
    ctx.body = await listActivity(deps, principalOf(ctx), page, { agentId });
  });
}
