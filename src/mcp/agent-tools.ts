import { z } from 'zod';
import { requireScope } from '../auth/access.js';
import { activityResponse } from '../activity/activity.schema.js';
import { listAgentActivity } from '../agents/activity.service.js';
import { agentPatch, agentResponse } from '../agents/agents.schema.js';
import { getAgent, updateAgent } from '../agents/agents.service.js';
import { chatInput, conversationResponse } from '../messages/messages.schema.js';
import { listAgentConversations } from '../messages/messages.service.js';
import { pageOf } from '../platform/output.js';
import { pageQuery } from '../platform/pagination.js';
import { parseInput } from '../platform/validation.js';
import { runQueuedResponse } from '../runs/runs.schema.js';
import { triggerAgent } from '../runs/runs.service.js';
import { defineTool, destructive, readOnly, type McpTool, type ToolContext } from './tools.js';
import { text } from '../platform/input.js';

// The per-agent MCP server: exactly these five tools, each bound to the agent of the endpoint's path (the
// route only admits that agent's own key). Each tool carries the access of the REST route it mirrors.

const agentIdOf = (ctx: ToolContext) => ctx.params.agentId!;
const limit = z
  .number()
  .int()
  .min(1)
  .max(100)
  .optional()
  .describe('How many items to return, newest first (1-100, default 20)');

const getAgentConfig = defineTool({
  name: 'get_agent_config',
  title: 'Get this agent’s configuration',
  description:
    'Returns this agent: id, name, status (active or paused) and its config object (runtime, autoReply and any custom keys). Call this before update_agent_config to see the current values.',
  access: requireScope('read:agents', { scope: 'agent:config:read', param: 'agentId' }),
  input: z.object({}),
  output: agentResponse,
  annotations: readOnly,
  run: (ctx) => getAgent(ctx.deps, ctx.principal, agentIdOf(ctx)),
});

const getAgentConversations = defineTool({
  name: 'get_agent_conversations',
  title: 'Get this agent’s conversations',
  description:
    'Returns this agent’s conversations (email, SMS and chat threads with contacts), newest first, each with its latest messages (direction inbound/outbound, status, text). Use limit to read fewer or more.',
  access: requireScope('read:messages', { scope: 'agent:conversations:read', param: 'agentId' }),
  input: z.object({ limit }),
  output: pageOf(conversationResponse),
  annotations: readOnly,
  run: (ctx, args) => listAgentConversations(ctx.deps, ctx.principal, agentIdOf(ctx), parseInput(pageQuery, args)),
});

const getAgentActivity = defineTool({
  name: 'get_agent_activity',
  title: 'Get this agent’s activity',
  description:
    'Returns this agent’s activity timeline, newest first: messages received and drafted, sends, runs queued/succeeded/failed, configuration changes. Each entry has kind, summary, subject and createdAt.',
  access: requireScope('read:activity', { scope: 'agent:activity:read', param: 'agentId' }),
  input: z.object({ limit }),
  output: pageOf(activityResponse),
  annotations: readOnly,
  run: (ctx, args) => listAgentActivity(ctx.deps, ctx.principal, agentIdOf(ctx), parseInput(pageQuery, args)),
});

const updateAgentConfig = defineTool({
  name: 'update_agent_config',
  title: 'Update this agent’s configuration',
  description:
    'Changes this agent’s config with a JSON merge patch (RFC 7396): keys you send replace the current values, nested objects merge, a key set to null is removed, keys you omit stay as they are. Known keys: autoReply (string, the built-in runtime’s reply) and runtime ({type:"http", url}). Returns the updated agent. Name and status cannot be changed with this tool.',
  access: requireScope('write:agents', { scope: 'agent:config:write', param: 'agentId' }),
  input: z.object({
    config: z
      .record(text(), z.unknown())
      .describe('A JSON merge patch for the config, e.g. {"autoReply": "Thanks, we will get back to you"}'),
  }),
  output: agentResponse,
  annotations: destructive,
  run: (ctx, args) => updateAgent(ctx.deps, ctx, agentIdOf(ctx), parseInput(agentPatch, { config: args.config })),
});

const triggerAgentTool = defineTool({
  name: 'trigger_agent',
  title: 'Send this agent a chat message (spends credits)',
  description:
    'Sends a chat message to this agent and queues a run that answers it; each call costs credits (one agent trigger) and may fail with spend_cap_exceeded, insufficient_credits, rate_limited or agent_paused, in which case nothing was charged. Returns the queued run {id, status}; the reply appears in get_agent_conversations and get_agent_activity once the run finishes.',
  access: requireScope('trigger:agents', { scope: 'agent:trigger', param: 'agentId' }),
  input: z.object({ message: text().describe('The chat message for the agent') }),
  output: runQueuedResponse,
  annotations: { ...destructive, openWorldHint: true },
  run: (ctx, args) => triggerAgent(ctx.deps, ctx, agentIdOf(ctx), parseInput(chatInput, args).message),
});

export const agentServer = {
  name: 'switchboard-agent',
  instructions:
    'Tools for exactly one Switchboard agent (the one in this endpoint path): its config, conversations and activity, ' +
    'config updates and chat triggers. trigger_agent spends credits; update_agent_config changes how the agent behaves.',
};

export const agentTools: McpTool[] = [
  getAgentConfig,
  getAgentConversations,
  getAgentActivity,
  updateAgentConfig,
  triggerAgentTool,
];
