import { PassThrough } from 'node:stream';
import type Koa from 'koa';
import type { AppContext } from './context.js';

// A response held open as server-sent events (text/event-stream): the MCP revision's subscriptions/listen and
// the webhook stream destinations use it. An idle stream carries a comment line now and then, so proxies and
// clients see it is alive; when the server starts draining, every stream it holds is ended at once instead of
// holding the shutdown until its deadline.

/** How often an idle stream carries a comment line. */
const HEARTBEAT_MS = 15_000;

export interface EventStream {
  /** Writes one event: `data` as JSON, under `event` when given (the default event type is "message"). */
  send(data: unknown, event?: string): void;
  /** Ends the response, after one last event when given; the client sees the stream close. */
  end(last?: { data: unknown; event?: string }): void;
  /** What answerWithEventStream makes the response's body. */
  readonly body: PassThrough;
}

const frame = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/**
 * An event stream not answered yet: events sent now are written once it answers a request. Opening it first lets a
 * caller hand `send` to something that may deliver before the response is set up.
 */
export function createEventStream(): EventStream {
  const body = new PassThrough();
  return {
    body,
    send: (data, event) => void body.write(frame(data, event)),
    end: (last) => void (last ? body.end(frame(last.data, last.event)) : body.end()),
  };
}

/** The streams one app holds open: createApp puts them on the app's context, so a server ends its own. */
export type OpenStreams = Set<EventStream>;

export const createOpenStreams = (): OpenStreams => new Set();

/**
 * Answers `ctx` with `stream` (from createEventStream), held open until the client goes away, `end()` is called,
 * or the server drains. `onClose` runs once, whichever of them ends it, and at once if the client has gone already.
 */
export function answerWithEventStream(ctx: AppContext, stream: EventStream, onClose?: () => void): void {
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.set({ 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  ctx.body = stream.body;

  const streams = ctx.openStreams;
  streams.add(stream);
  const heartbeat = setInterval(() => stream.body.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const closed = () => {
    clearInterval(heartbeat);
    streams.delete(stream);
    onClose?.();
  };
  if (ctx.req.socket.destroyed || ctx.res.destroyed) closed();
  else ctx.res.once('close', closed);
}

/** Ends every event stream `app` holds: the server is draining. */
export function endEventStreams(app: Koa): void {
  for (const stream of app.context.openStreams) stream.end();
}
