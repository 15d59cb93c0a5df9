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
  /** Ends the response; the client sees the stream close. */
  end(): void;
}

/** The open streams of each app (one app per listening server), so that closing a server ends its own. */
const openStreams = new WeakMap<Koa, Set<EventStream>>();

/**
 * Answers `ctx` with an event stream that stays open until the client goes away, `end()` is called, or the
 * server drains. `onClose` runs once, whichever of them ends it.
 */
export function openEventStream(ctx: AppContext, onClose?: () => void): EventStream {
  const out = new PassThrough();
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.set({ 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  ctx.body = out;

  const streams = openStreams.get(ctx.app) ?? new Set<EventStream>();
  openStreams.set(ctx.app, streams);
  const stream: EventStream = {
    send: (data, event) => void out.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`),
    end: () => void out.end(),
  };
  streams.add(stream);
  const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
  ctx.res.once('close', () => {
    clearInterval(heartbeat);
    streams.delete(stream);
    onClose?.();
  });
  return stream;
}

/** Ends every event stream `app` holds: the server is draining. */
export function endEventStreams(app: Koa): void {
  for (const stream of openStreams.get(app) ?? []) stream.end();
}
