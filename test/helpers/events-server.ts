import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createWebhookSubscriptions, type WebhookSubscriptions } from './events-webhooks.js';

// A real MCP server on 127.0.0.1 that speaks the Events extension (events/list, poll, stream, subscribe and
// unsubscribe) over Streamable HTTP with the SDK's own Server and transport, for the @switchboard/mcp-events tests.
// One in-memory log of events; a cursor is `c<n>`, the position after the n-th event; `stale` is a cursor the
// server can no longer serve (it answers truncated).

export interface LoggedEvent {
  seq: number;
  eventId: string;
  name: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface EventsServerOptions {
  /** events/poll's page size when maxEvents is absent. Default 2. */
  pageSize?: number;
  nextPollMs?: number;
  heartbeatMs?: number;
  /** The bearer token webhook calls need (the principal). Default "fixture-token". */
  token?: string;
  /** The longest TTL events/subscribe grants. */
  grantMs?: number;
}

export interface EventsServer {
  url: string;
  log: LoggedEvent[];
  /** Every request the server answered or holds, in arrival order. */
  calls: Array<{ method: string; params: any }>;
  emit(name: string, data: Record<string, unknown>): LoggedEvent;
  /** Open events/stream requests. */
  openStreams(): number;
  /** Destroys every open stream's socket mid-stream, as a crashed proxy would. */
  dropStreams(): void;
  /** While true, streams send no heartbeat (the connection stays open, silent). */
  silence: boolean;
  /** Ends every open stream with notifications/events/terminated carrying `error`. */
  terminateStreams(error: { code: number; message: string; data?: unknown }): void;
  /** Sends notifications/events/error on every open stream, which stays open. */
  failStreams(error: { code: number; message: string; data?: unknown }): void;
  webhooks: WebhookSubscriptions;
  /** Sockets the HTTP server holds open. */
  connections(): number;
  close(): Promise<void>;
}

export const EVENT_TYPES = [
  { name: 'message.received', description: 'A message arrived', delivery: ['poll', 'push', 'webhook'] },
  { name: 'contact.created', description: 'A contact was created', delivery: ['poll'] },
];

const request = (method: string) =>
  z.object({ method: z.literal(method), params: z.record(z.string(), z.unknown()).optional() });
const subscriptionParams = z.looseObject({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  cursor: z.string().nullish(),
  timeoutMs: z.number().optional(),
  maxEvents: z.number().optional(),
});

export async function startEventsServer(options: EventsServerOptions = {}): Promise<EventsServer> {
  const log: LoggedEvent[] = [];
  const calls: EventsServer['calls'] = [];
  const changes = new EventTarget();
  const streams = new Set<{ socket: Socket; end: (error: unknown) => void; fail: (error: unknown) => void }>();
  const sockets = new Set<Socket>();
  const token = options.token ?? 'fixture-token';
  let silent = false;

  const head = () => log.length;
  const cursorOf = (seq: number) => `c${seq}`;
  /** A request's cursor as a position, and whether the server had to skip ahead of it. */
  function positionOf(cursor: string | null | undefined): { position: number; truncated: boolean } {
    if (cursor === null || cursor === undefined) return { position: head(), truncated: false };
    if (cursor === 'stale') return { position: head(), truncated: true };
    const n = /^c(\d+)$/.exec(cursor);
    if (!n || Number(n[1]) > head()) throw new McpError(-32602, 'InvalidParams', { field: 'cursor' });
    return { position: Number(n[1]), truncated: false };
  }
  function knownName(name: string) {
    if (!EVENT_TYPES.some((t) => t.name === name)) throw new McpError(-32011, 'NotFound', { kind: 'event' });
  }
  const after = (position: number, name: string) => log.filter((e) => e.seq > position && e.name === name);
  const occurrence = (e: LoggedEvent) => ({ eventId: e.eventId, name: e.name, timestamp: e.timestamp, data: e.data });
  /** Resolves at the next emit, after `ms`, or when `signal` aborts, whichever is first. */
  const nextChange = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        changes.removeEventListener('emit', done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      changes.addEventListener('emit', done);
      signal.addEventListener('abort', done);
    });

  const webhooks = createWebhookSubscriptions({ log, cursorOf, positionOf, knownName, grantMs: options.grantMs });

  function mcpServer(req: IncomingMessage, closed: AbortSignal): Server {
    const server = new Server(
      { name: 'events-fixture', version: '1.0.0' },
      { capabilities: { experimental: { events: { listChanged: false } } } },
    );
    const record = (method: string, params: unknown) => calls.push({ method, params: params ?? {} });

    server.setRequestHandler(request('events/list'), ({ params }) => {
      record('events/list', params);
      const start = Number(params?.cursor ?? 0);
      const page = EVENT_TYPES.slice(start, start + 1);
      const next = start + 1 < EVENT_TYPES.length ? { nextCursor: String(start + 1) } : {};
      return {
        events: page.map((t) => ({ ...t, inputSchema: { type: 'object' }, payloadSchema: { type: 'object' } })),
        ...next,
      };
    });

    server.setRequestHandler(request('events/poll'), async ({ params }) => {
      record('events/poll', params);
      const p = subscriptionParams.parse(params);
      knownName(p.name);
      const nextPollMs = options.nextPollMs ?? 0;
      if (p.cursor === null || p.cursor === undefined)
        return { events: [], cursor: cursorOf(head()), truncated: false, hasMore: false, nextPollMs };
      const { position, truncated } = positionOf(p.cursor);
      const deadline = Date.now() + (p.timeoutMs ?? 0);
      while (after(position, p.name).length === 0 && Date.now() < deadline && !closed.aborted) {
        await nextChange(deadline - Date.now(), closed);
      }
      const pending = after(position, p.name);
      const page = pending.slice(0, p.maxEvents ?? options.pageSize ?? 2);
      const hasMore = pending.length > page.length;
      const cursor = cursorOf(hasMore ? page.at(-1)!.seq : head());
      return { events: page.map(occurrence), cursor, truncated, hasMore, nextPollMs };
    });

    server.setRequestHandler(request('events/stream'), async ({ params }, extra) => {
      record('events/stream', params);
      const p = subscriptionParams.parse(params);
      knownName(p.name);
      const start = positionOf(p.cursor);
      let position = start.position;
      const _meta = { 'io.modelcontextprotocol/subscriptionId': extra.requestId };
      const send = (method: string, body: Record<string, unknown>) =>
        extra.sendNotification({ method, params: { ...body, _meta } } as never);
      const state: { ending?: { error: unknown } } = {};
      const stream = {
        socket: req.socket,
        end: (error: unknown) => {
          state.ending = { error };
          changes.dispatchEvent(new Event('emit'));
        },
        fail: (error: unknown) => void send('notifications/events/error', { error }).catch(() => undefined),
      };
      streams.add(stream);
      try {
        await send('notifications/events/active', { cursor: cursorOf(position), truncated: start.truncated });
        let lastBeat = Date.now();
        while (!closed.aborted && !state.ending) {
          for (const e of after(position, p.name)) {
            await send('notifications/events/event', { ...occurrence(e), cursor: cursorOf(e.seq) });
            position = e.seq;
          }
          position = Math.max(position, head());
          const heartbeatMs = options.heartbeatMs ?? 1000;
          if (Date.now() - lastBeat >= heartbeatMs) {
            if (!silent) await send('notifications/events/heartbeat', { cursor: cursorOf(position) });
            lastBeat = Date.now();
          }
          await nextChange(Math.max(1, heartbeatMs - (Date.now() - lastBeat)), closed);
        }
        if (state.ending) await send('notifications/events/terminated', { error: state.ending.error });
      } finally {
        streams.delete(stream);
      }
      return { _meta: {} };
    });

    const principal = () => req.headers.authorization === `Bearer ${token}`;
    server.setRequestHandler(request('events/subscribe'), ({ params }) => {
      record('events/subscribe', params);
      return webhooks.subscribe(params, principal());
    });
    server.setRequestHandler(request('events/unsubscribe'), ({ params }) => {
      record('events/unsubscribe', params);
      return webhooks.unsubscribe(params, principal());
    });
    return server;
  }

  const http: HttpServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // Stateless: a Server and a transport per HTTP request, so a request's end is its HTTP response's end.
      const closed = new AbortController();
      res.on('close', () => closed.abort());
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const server = mcpServer(req, closed.signal);
      const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      void server
        .connect(transport)
        .then(() => transport.handleRequest(req, res, body))
        .catch(() => res.destroy());
      res.on('close', () => void server.close().catch(() => undefined));
    });
  });
  // Idle keep-alive sockets go quickly, so what stays open is what a client holds.
  http.keepAliveTimeout = 500;
  http.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    calls,
    emit(name, data) {
      const e = {
        seq: log.length + 1,
        eventId: `evt_${log.length + 1}`,
        name,
        timestamp: new Date().toISOString(),
        data,
      };
      log.push(e);
      changes.dispatchEvent(new Event('emit'));
      webhooks.deliver(e);
      return e;
    },
    openStreams: () => streams.size,
    dropStreams: () => streams.forEach((s) => s.socket.destroy()),
    get silence() {
      return silent;
    },
    set silence(on: boolean) {
      silent = on;
    },
    terminateStreams: (error) => streams.forEach((s) => s.end(error)),
    failStreams: (error) => streams.forEach((s) => s.fail(error)),
    webhooks,
    connections: () => sockets.size,
    close: async () => {
      await webhooks.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
