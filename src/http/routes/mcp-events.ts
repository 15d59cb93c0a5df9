import type { Deps } from '../../app/deps.js';
import type { Principal } from '../../auth/principal.js';
import { answerEvents, EVENTS_METHODS, type EventsAnswer } from '../../mcp/events/dispatch.js';
import type { EventsContext } from '../../mcp/events/context.js';
import { complete, type StatelessAnswer } from '../../mcp/stateless.js';
import { META_SERVER, rpcError, type RequestId, type StatelessRequest } from '../../mcp/stateless-request.js';
import { resourceOfPath } from '../../oauth/resources.js';
import { clientIp } from '../client-ip.js';
import type { AppContext } from '../context.js';
import { answerWithEventStream, createEventStream } from '../event-stream.js';
import { bearerToken } from '../middleware/authenticate.js';
import { resolveCredential } from '../credentials.js';

// The MCP events methods on both MCP endpoints (docs/mcp-events.md), in both eras: the initialize era's single
// JSON-RPC request answered here as JSON (or, for events/stream, as server-sent events) instead of by the SDK's
// transport; the stateless revision's after its envelope was validated (src/mcp/stateless.ts).

const SERVER_INFO_VERSION = '1.0.0';

function eventsContext(ctx: AppContext, deps: Deps, principal: Principal, agentId: string | null): EventsContext {
  const controller = new AbortController();
  ctx.res.once('close', () => controller.abort());
  const { publicUrl } = ctx.state;
  const info = {
    ip: clientIp(ctx, deps.config.trustProxyHops),
    publicUrl,
    resource: resourceOfPath(publicUrl, ctx.path),
  };
  const token = bearerToken(ctx);
  const resolveAgain = () => resolveCredential(deps, token, info);
  return { deps, audience: { principal, agentId }, resolveAgain, signal: controller.signal };
}

/** Runs an events/stream as this request's response; it ends when the client goes away or it is terminated. */
function runAsEventStream(ctx: AppContext, answer: Extract<EventsAnswer, { stream: unknown }>) {
  const stream = createEventStream();
  // The client gone, the body is ended too, so that nothing of the response outlives its connection.
  answerWithEventStream(ctx, stream, () => stream.body.end());
  // The drain may have ended the body already (endEventStreams): nothing is written after that.
  const open = () => !stream.body.writableEnded;
  const writer = {
    send: (m: unknown) => open() && stream.send(m),
    end: (last: unknown) => open() && stream.end({ data: last }),
  };
  // Not background work: a stream lasts until its client leaves, and the drain ends it (endEventStreams).
  void answer.stream.run(writer);
}

/** Is the body an initialize-era events request (one JSON-RPC request naming an events method)? */
export function isEventsRequest(body: unknown): body is { id: RequestId; method: string; params?: unknown } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const message = body as Record<string, unknown>;
  return (
    typeof message.method === 'string' &&
    EVENTS_METHODS.has(message.method) &&
    (typeof message.id === 'string' || Number.isSafeInteger(message.id))
  );
}

/** Answers an initialize-era events request. */
export async function serveEventsRequest(
  ctx: AppContext,
  deps: Deps,
  principal: Principal,
  agentId: string | null,
  body: { id: RequestId; method: string; params?: unknown },
): Promise<void> {
  const events = eventsContext(ctx, deps, principal, agentId);
  const request = { id: body.id, method: body.method, params: body.params ?? {} };
  const answer = await answerEvents(events, ctx.state.log, request, { _meta: {} });
  if ('stream' in answer) return runAsEventStream(ctx, answer);
  ctx.status = 200;
  ctx.body = { jsonrpc: '2.0', id: body.id, ...answer };
}

/** The stateless revision's events handler for this request (src/mcp/stateless.ts calls it once validated). */
export function statelessEvents(
  ctx: AppContext,
  deps: Deps,
  principal: Principal,
  agentId: string | null,
  serverName: string,
) {
  const serverInfo = { name: serverName, version: SERVER_INFO_VERSION };
  return async (request: StatelessRequest): Promise<StatelessAnswer> => {
    const events = eventsContext(ctx, deps, principal, agentId);
    const final = { resultType: 'complete', _meta: { [META_SERVER]: serverInfo } };
    const answer = await answerEvents(events, ctx.state.log, request, final);
    if ('stream' in answer) return { status: 200, body: {}, stream: answer.stream };
    if ('error' in answer) return rpcError(200, request.id, answer.error.code, answer.error.message, answer.error.data);
    return complete(request.id, answer.result, serverInfo);
  };
}

export { runAsEventStream };
