import { requireScope } from '../../auth/access.js';
import { agentInput, agentPatch } from '../../agents/agents.schema.js';
import { createAgent, getAgent, listAgents, updateAgent } from '../../agents/agents.service.js';
import type { Deps } from '../../platform/deps.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { clientIp } from '../client-ip.js';
import { principalOf } from '../middleware/authenticate.js';
import type { ApiRouter } from '../router.js';

// The agents collection is account-only; /v1/agents/:id/** is also open to that agent's own per-agent key.
export function registerAgentRoutes(api: ApiRouter, deps: Deps) {
  api.get('/v1/agents', requireScope('read:agents'), async (ctx) => {
    ctx.body = await listAgents(deps, principalOf(ctx), parseInput(pageQuery, ctx.query));
  });

  api.post('/v1/agents', requireScope('write:agents'), async (ctx) => {
    ctx.status = 201;
    ctx.body = await createAgent(deps, principalOf(ctx), parseInput(agentInput, ctx.request.body), clientIp(ctx, deps.config.trustProxyHops));
  });

  api.get('/v1/agents/:id', requireScope('read:agents', { scope: 'agent:config:read' }), async (ctx) => {
    ctx.body = await getAgent(deps, principalOf(ctx), ctx.params.id!);
  });

  api.patch('/v1/agents/:id', requireScope('write:agents', { scope: 'agent:config:write' }), async (ctx) => {
    ctx.body = await updateAgent(deps, principalOf(ctx), ctx.params.id!, parseInput(agentPatch, ctx.request.body), clientIp(ctx, deps.config.trustProxyHops));
  });
}
