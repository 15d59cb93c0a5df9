import type { IncomingHttpHeaders } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { isJSONRPCRequest, LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { text } from '../platform/input.js';
import { EVENTS_METHODS } from './events/dispatch.js';
import type { OpenedStream } from './events/stream.js';
import {
  META_SERVER,
  META_SUBSCRIPTION,
  rpcCode,
  rpcError,
  readStatelessRequest,
  SERVED_VERSIONS,
  type RpcAnswer,
  type StatelessRequest,
} from './stateless-request.js';

// The stateless MCP revision (2026-07-28) as a thin layer over the SDK server the initialize era uses: the request
// is validated (stateless-request.ts), then handed to that very server (same tools, same `authorize`, same tool
// errors) through an in-process connection opened with the request's own `_meta` capabilities and client info,
// and the answer is reshaped into the revision's result. No tool or rule exists twice (docs/mcp-2026.md).

// https://modelcontextprotocol.io/specification/2026-07-28/server/discover
// https://modelcontextprotocol.io/specification/2026-07-28/server/tools
// The methods of a tools-only server. initialize, ping and logging/setLevel are not methods of this revision
// (https://modelcontextprotocol.io/specification/2026-07-28/changelog), so they answer Method not found.
// The events methods (src/mcp/events/) are answered by the route's `events` handler, outside the SDK server.
const METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'tools/call',
  'subscriptions/listen',
  // MCP Events webhook mode (docs/mcp-events-webhook.md).
  'events/subscribe',
  'events/unsubscribe',
  ...EVENTS_METHODS,
]);

// https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions#notification-filter
// Every field is optional; a field this revision does not define is not a notification type the server knows.
const listenFilter = z.looseObject({
  toolsListChanged: z.boolean().optional(),
  promptsListChanged: z.boolean().optional(),
  resourcesListChanged: z.boolean().optional(),
  resourceSubscriptions: z.array(text()).optional(),
});

// https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching#cacheable-results
// discover and tools/list MUST carry caching hints. Both answer a credential (tools/list shows what it may use),
// so no shared cache may keep them; a tool list is fresh for a minute, as a grant or a key can change.
const cacheHints = {
  'server/discover': { ttlMs: 300_000, cacheScope: 'private' },
  'tools/list': { ttlMs: 60_000, cacheScope: 'private' },
} as const;

/**
 * What the endpoint answers: a JSON-RPC message, or (`holdOpen`) the first message of an event stream that stays
 * open until the client closes it or the server drains, or (`stream`) an events/stream to run as the response.
 */
export type StatelessAnswer = RpcAnswer & { holdOpen?: true; stream?: OpenedStream };

/** Answers the events methods of a validated request (src/http/routes/mcp-events.ts). */
export type StatelessEvents = (request: StatelessRequest) => Promise<StatelessAnswer>;

/**
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
 * The stream opens with notifications/subscriptions/acknowledged, carrying the subscription's id (the request's)
 * in `_meta` and the subset of the filter the server agreed to honour, omitting what it does not support. This
 * server sends no notification at all: no prompts or resources, and a tool list that is fixed for a credential
 * (`listChanged` is false), so the subset is empty and the stream carries the acknowledgment alone.
 */
function listen(request: StatelessRequest): StatelessAnswer {
  const filter = listenFilter.safeParse(request.params.notifications);
  if (!filter.success) {
    const message = 'Invalid params: notifications must be a filter object (toolsListChanged, resourceSubscriptions…)';
    return rpcError(400, request.id, rpcCode.invalidParams, message);
  }
  const acknowledged = {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: {}, _meta: { [META_SUBSCRIPTION]: request.id } },
  };
  return { status: 200, body: acknowledged, holdOpen: true };
}

/** A response of the SDK server, as far as this layer reads it. */
interface Reply {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

interface Connection {
  init: Reply;
  ask(method: string, params: Record<string, unknown>): Promise<Reply>;
}

/** Opens the SDK server in-process as the request's client would have, with the request's capabilities. */
async function connect(server: McpServer, request: StatelessRequest): Promise<Connection> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<unknown, (reply: Reply) => void>();
  clientSide.onmessage = (message) => {
    if ('id' in message) waiting.get(message.id)?.(message as JSONRPCMessage as Reply);
  };
  await server.connect(serverSide);
  await clientSide.start();
  let next = 0;
  const ask = (method: string, params: Record<string, unknown>) =>
    new Promise<Reply>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, resolve);
      clientSide.send({ jsonrpc: '2.0', id, method, params }).catch(reject);
    });
  const { clientCapabilities: capabilities, clientInfo } = request;
  const init = await ask('initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities, clientInfo });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { init, ask };
}

/**
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/index#result-responses
 * Every result carries resultType; servers SHOULD name themselves in each result's `_meta`.
 */
export function complete(id: StatelessRequest['id'], result: Record<string, unknown>, serverInfo: unknown, extra = {}) {
  const meta = { ...(result._meta as Record<string, unknown> | undefined), [META_SERVER]: serverInfo };
  const body = { jsonrpc: '2.0', id, result: { ...result, ...extra, resultType: 'complete', _meta: meta } };
  const answer: RpcAnswer = { status: 200, body };
  return answer;
}

/** A JSON-RPC error of the SDK server, under the request's id. */
function forwardError(id: StatelessRequest['id'], reply: Reply): RpcAnswer {
  const error = reply.error ?? { code: -32603, message: 'Internal error: the server gave no result' };
  return rpcError(200, id, error.code, error.message, error.data);
}

/**
 * Answers one POST of the stateless revision with `server` (built for this request's credential by the route).
 * Every refusal happens before the server is reached, so a refused request runs nothing.
 */
export async function answerStatelessRequest(
  server: McpServer,
  toolNames: string[],
  headers: IncomingHttpHeaders,
  body: unknown,
  events?: StatelessEvents,
): Promise<StatelessAnswer> {
  try {
    const read = readStatelessRequest(headers, body);
    if (!read.ok) return read.answer;
    const { request } = read;
    // https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#protocol-version-header
    // A method the server does not implement: 404 and -32601.
    if (!METHODS.has(request.method)) {
      return rpcError(404, request.id, rpcCode.methodNotFound, `Method not found: ${request.method}`);
    }
    // The SDK server drops, unanswered, a request its own schema refuses (a `_meta` field it knows, of the wrong
    // type): such params are malformed, refused like a malformed `_meta` before anything runs.
    if (!isJSONRPCRequest({ jsonrpc: '2.0', id: request.id, method: request.method, params: request.params })) {
      return rpcError(400, request.id, rpcCode.invalidParams, 'Invalid params: a _meta field has the wrong type');
    }

    if (request.method === 'subscriptions/listen') return listen(request);
    if (EVENTS_METHODS.has(request.method)) {
      if (!events) return rpcError(404, request.id, rpcCode.methodNotFound, `Method not found: ${request.method}`);
      return await events(request);
    }
    // https://modelcontextprotocol.io/specification/2026-07-28/server/tools#error-handling
    // An unknown tool is a protocol error, -32602 (the SDK answers a tool error instead: that is the initialize
    // era's behaviour, and it stays there).
    const toolName = request.params.name;
    if (request.method === 'tools/call' && (typeof toolName !== 'string' || !toolNames.includes(toolName))) {
      return rpcError(200, request.id, rpcCode.invalidParams, `Unknown tool: ${String(toolName)}`);
    }

    const { init, ask } = await connect(server, request);
    // The `_meta` capabilities did not pass the SDK's schema: Invalid params with 400, as any malformed `_meta`
    // (https://modelcontextprotocol.io/specification/2026-07-28/basic/index#meta).
    if (!init.result) {
      const reason = init.error?.message ?? 'the client capabilities were refused';
      return rpcError(400, request.id, rpcCode.invalidParams, `Invalid params: _meta client capabilities: ${reason}`);
    }
    const serverInfo = init.result.serverInfo;
    if (request.method === 'server/discover') {
      // https://modelcontextprotocol.io/specification/2026-07-28/server/discover#discoverresult
      const { capabilities, instructions } = init.result;
      const discovered = { supportedVersions: SERVED_VERSIONS, capabilities, instructions };
      return complete(request.id, discovered, serverInfo, cacheHints['server/discover']);
    }
    const reply = await ask(request.method, request.params);
    if (!reply.result) return forwardError(request.id, reply);
    const hints = request.method === 'tools/list' ? cacheHints['tools/list'] : {};
    return complete(request.id, reply.result, serverInfo, hints);
  } finally {
    await server.close();
  }
}
