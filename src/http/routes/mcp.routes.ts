import { agentKeyOnly, authenticated } from '../../auth/access.js';
import { accountServer, accountTools } from '../../mcp/account-tools.js';
import { agentServer, agentTools } from '../../mcp/agent-tools.js';
import { serveMcpRequest } from '../../mcp/serve.js';
import { answerStatelessRequest } from '../../mcp/stateless.js';
import { isStatelessRequest } from '../../mcp/stateless-request.js';
import { buildMcpServer, missingScopeOf, type McpTool } from '../../mcp/tools.js';
import type { Deps } from '../../app/deps.js';
import { text } from '../../platform/input.js';
import { jsonRecord, outText } from '../../platform/output.js';
import { z } from 'zod';
import { clientIp } from '../client-ip.js';
import { answerWithEventStream, createEventStream } from '../event-stream.js';
import type { AppContext } from '../context.js';
import { withScopeChallenge } from '../oauth/challenge.js';
import { isEventsRequest, runAsEventStream, serveEventsRequest, statelessEvents } from './mcp-events.js';
import { principalOf } from '../middleware/authenticate.js';
import type { ApiRouter } from '../router.js';

/**
 * The MCP endpoints (Streamable HTTP, stateless). Only POST is routed: GET (a server-sent stream) and DELETE
 * (ending a session) have no meaning without sessions, so the router's allowedMethods answers them 405.
 */
const jsonRpcError = z.object({
  jsonrpc: z.literal('2.0'),
  error: z.object({ code: z.number().int(), message: outText() }).catchall(z.unknown()),
  // Optional: the stateless revision answers a refused notification or batch with an error that has no id.
  id: z.union([outText(), z.number(), z.null()]).optional(),
});

// JSON-RPC over Streamable HTTP (stateless): the MCP SDK's transport judges the message and may answer with
// application/json or text/event-stream, so the document describes the envelope only.
const mcpDoc = {
  tag: 'MCP' as const,
  description:
    'Model Context Protocol, Streamable HTTP, stateless. Send `Accept: application/json, text/event-stream`. `tools/list` shows the tools the credential allows. OAuth access tokens for this resource are accepted too (see /.well-known/oauth-protected-resource).',
  body: z
    .object({
      jsonrpc: z.literal('2.0'),
      method: text(),
      id: z.union([text(), z.number()]).optional(),
      params: z.record(text(), z.unknown()).optional(),
    })
    .catchall(z.unknown()),
  response: jsonRecord().describe('A JSON-RPC response (or, with text/event-stream, its events)'),
  examples: { request: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } },
  // A browser's request from an Origin that is neither PUBLIC_URL's nor in MCP_ALLOWED_ORIGINS (DNS rebinding).
  // insufficient_scope: an OAuth access token's tools/call it lacks the scope for (step-up, WWW-Authenticate names
  // it); an API key gets a tool result with isError naming the scope instead.
  errors: ['origin_not_allowed' as const, 'insufficient_scope' as const],
  otherResponses: {
    400: { description: 'A message the MCP transport refuses (JSON-RPC error)', schema: jsonRpcError },
    404: {
      description: 'Stateless revision (2026-07-28): a method this server does not implement (JSON-RPC -32601)',
      schema: jsonRpcError,
    },
    406: {
      description: 'The Accept header does not allow both application/json and text/event-stream (JSON-RPC error)',
      schema: jsonRpcError,
    },
    415: { description: 'A request without Content-Type: application/json (JSON-RPC error)', schema: jsonRpcError },
  },
};

export function registerMcpRoutes(api: ApiRouter, deps: Deps) {
  const serve = async (
    ctx: AppContext,
    info: { name: string; instructions: string },
    tools: McpTool[],
    params: Record<string, string>,
  ) => {
    const toolCtx = {
      deps,
      principal: principalOf(ctx),
      ip: clientIp(ctx, deps.config.trustProxyHops),
      log: ctx.state.log,
      params,
    };
    const stepUp = missingScopeOf(tools, toolCtx, ctx.request.body);
    if (stepUp) throw withScopeChallenge(stepUp, ctx.state.publicUrl, ctx.path);
    const server = buildMcpServer(info, tools, toolCtx);
    const agentId = params.agentId ?? null;
    // Both eras on one URL (docs/mcp-2026.md#which-era-answers): the stateless revision, or the SDK's transport.
    if (isStatelessRequest(ctx.req.headers, ctx.request.body)) {
      const names = tools.map((tool) => tool.name);
      const events = statelessEvents(ctx, deps, toolCtx.principal, agentId, info.name);
      const answer = await answerStatelessRequest(server, names, ctx.req.headers, ctx.request.body, events);
      if (answer.stream) return runAsEventStream(ctx, { stream: answer.stream });
      if (answer.holdOpen) {
        const stream = createEventStream();
        stream.send(answer.body);
        answerWithEventStream(ctx, stream);
        return;
      }
      ctx.status = answer.status;
      ctx.body = answer.body;
      return;
    }
    // The events methods (docs/mcp-events.md) are answered beside the SDK's transport, as in the stateless era.
    if (isEventsRequest(ctx.request.body)) {
      await server.close();
      return serveEventsRequest(ctx, deps, toolCtx.principal, agentId, ctx.request.body);
    }
    ctx.respond = false; // the transport writes the response itself
    try {
      await serveMcpRequest(server, ctx.req, ctx.res, ctx.request.body);
    } catch (err) {
      if (!ctx.res.headersSent) {
        ctx.respond = true; // nothing written yet: the error renderer answers (docs/adr/0038-mcp-protocol-errors.md)
        throw err;
      }
      ctx.state.log.error({ err }, 'MCP request failed after its response started');
      ctx.res.end();
    }
  };

  // Account keys and every session of the account (a session is not limited by scopes, as on REST).
  api.post(
    '/v1/mcp',
    authenticated,
    { ...mcpDoc, operationId: 'sendAccountMcpMessage', summary: 'Account MCP endpoint' },
    (ctx) => serve(ctx, accountServer, accountTools, {}),
  );

  // Only the agent's own per-agent key; every tool is bound to this agent.
  api.post(
    '/v1/agents/:agentId/mcp',
    agentKeyOnly('agentId'),
    { ...mcpDoc, operationId: 'sendAgentMcpMessage', summary: 'Per-agent MCP endpoint' },
    (ctx) => serve(ctx, agentServer, agentTools, { agentId: ctx.params.agentId! }),
  );
}
