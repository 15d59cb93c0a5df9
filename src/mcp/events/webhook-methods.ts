import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolContext } from '../tools.js';
import { EventsError } from './webhook-errors.js';
import { subscribe, unsubscribe, type WebhookCaller } from './webhook-service.js';

// events/subscribe and events/unsubscribe on the SDK server of one MCP request (both eras: the stateless layer
// hands its request to the same server). Params are read by the service, so the schemas here name the method only.

const subscribeRequest = z.object({ method: z.literal('events/subscribe'), params: z.unknown().optional() });
const unsubscribeRequest = z.object({ method: z.literal('events/unsubscribe'), params: z.unknown().optional() });

/** The JSON-RPC error a failure answers: the events error as it is, anything else logged and internal. */
function rethrow(ctx: ToolContext, err: unknown): never {
  if (err instanceof EventsError) throw err;
  ctx.log.error({ err }, 'MCP events webhook method failed');
  throw new EventsError(-32603, 'Internal error: something went wrong on our side; it has been logged');
}

export function registerWebhookMethods(server: McpServer, ctx: ToolContext): void {
  const caller: WebhookCaller = {
    deps: ctx.deps,
    principal: ctx.principal,
    endpoint: ctx.params.agentId ? { kind: 'agent', agentId: ctx.params.agentId } : { kind: 'account' },
  };
  server.server.setRequestHandler(subscribeRequest, async (request) => {
    try {
      return await subscribe(caller, request.params);
    } catch (err) {
      rethrow(ctx, err);
    }
  });
  server.server.setRequestHandler(unsubscribeRequest, async (request) => {
    try {
      return await unsubscribe(caller, request.params);
    } catch (err) {
      rethrow(ctx, err);
    }
  });
}
