import {
  connect,
  cursorKey,
  EventsError,
  ForbiddenError,
  memoryCursorStore,
  NotFoundError,
  stream,
  type EventsInfo,
} from '@switchboard/mcp-events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEventsServer, type EventsServer } from '../helpers/events-server.js';
import { waitUntil } from '../helpers/wait.js';

// @switchboard/mcp-events' stream loop against a real MCP server speaking the Events extension
// (test/helpers/events-server.ts): live events, a reconnect from the persisted cursor after the server drops the
// connection (nothing lost, nothing twice), heartbeat silence treated as a dead stream, terminated ending the loop,
// and an abort that closes the stream on the wire.

let server: EventsServer;
const name = 'message.received';
const connectClient = () => connect({ url: server.url });
const backoff = { initialMs: 10, maxMs: 50 };

beforeAll(async () => {
  server = await startEventsServer({ heartbeatMs: 100 });
});
afterAll(() => server?.close());

/** The events/stream requests of one test's subscription, told apart by its arguments. */
const streamCalls = (tag: string) =>
  server.calls.filter((c) => c.method === 'events/stream' && c.params.arguments?.tag === tag);

function run(tag: string, options: { heartbeatTimeoutMs?: number } = {}) {
  const store = memoryCursorStore();
  const controller = new AbortController();
  const ids: string[] = [];
  const reconnects: string[] = [];
  const ended = stream({
    connect: connectClient,
    name,
    arguments: { tag },
    cursor: `c${server.log.length}`,
    store,
    backoff,
    heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 30_000,
    signal: controller.signal,
    onEvents: (events) => void ids.push(...events.map((e) => e.eventId)),
    onReconnect: ({ reason }) => void reconnects.push(reason),
  });
  const cursor = () => store.load(cursorKey(name, { tag }));
  return { ended, controller, ids, reconnects, cursor };
}

describe('stream', () => {
  it('reconnects from the persisted cursor after the server drops the connection: nothing lost, nothing twice', async () => {
    const s = run('drop');
    await waitUntil(() => streamCalls('drop').length === 1 && server.openStreams() > 0, 30_000, 'the stream');
    const before = [server.emit(name, { n: 1 }), server.emit(name, { n: 2 })];
    await waitUntil(() => s.ids.length === 2, 30_000, 'two events');
    await waitUntil(async () => (await s.cursor()) === `c${before[1]!.seq}`, 30_000, 'the cursor after them');

    server.dropStreams();
    // Emitted while the client is away: the reconnect replays it from the cursor.
    const during = server.emit(name, { n: 3 });
    await waitUntil(() => streamCalls('drop').length === 2, 30_000, 'a reconnect');
    expect(streamCalls('drop')[1]!.params.cursor).toBe(`c${before[1]!.seq}`);
    await waitUntil(() => s.ids.length === 3, 30_000, 'the event sent while away');
    const after = server.emit(name, { n: 4 });
    await waitUntil(() => s.ids.length === 4, 30_000, 'a live event on the new stream');

    s.controller.abort();
    expect(await s.ended).toEqual({ reason: 'aborted' });
    expect(s.ids).toEqual([...before, during, after].map((e) => e.eventId));
    expect(s.reconnects).toHaveLength(1);
  });

  it('treats heartbeat silence past its deadline as a dead stream and reconnects', async () => {
    const s = run('silent', { heartbeatTimeoutMs: 500 });
    await waitUntil(() => streamCalls('silent').length === 1, 30_000, 'the stream');
    // Heartbeats (every 100 ms) advance the persisted cursor with no events.
    const head = `c${server.log.length}`;
    await waitUntil(async () => (await s.cursor()) === head, 30_000, 'a heartbeat cursor');
    server.silence = true;
    try {
      await waitUntil(() => streamCalls('silent').length === 2, 30_000, 'a reconnect after silence');
    } finally {
      server.silence = false;
    }
    expect(s.reconnects[0]).toBe('no heartbeat');
    expect(streamCalls('silent')[1]!.params.cursor).toBe(head);
    s.controller.abort();
    expect(await s.ended).toEqual({ reason: 'aborted' });
  });

  it('stops on notifications/events/terminated and reports the error, without reconnecting', async () => {
    const s = run('ended');
    await waitUntil(() => server.openStreams() > 0 && streamCalls('ended').length === 1, 30_000, 'the stream');
    const event = server.emit(name, { n: 'last' });
    await waitUntil(() => s.ids.length === 1, 30_000, 'the event');
    server.terminateStreams({ code: -32012, message: 'Forbidden', data: { reason: 'Access revoked' } });
    const end = await s.ended;
    expect(end.reason).toBe('terminated');
    const error = end.reason === 'terminated' ? end.error : undefined;
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ code: -32012, data: { reason: 'Access revoked' } });
    expect(s.ids).toEqual([event.eventId]);
    expect(s.reconnects).toEqual([]);
    expect(streamCalls('ended')).toHaveLength(1);
  });

  it('hands a truncated start to onEvents and notifications/events/error to onError, on the same stream', async () => {
    const batches: Array<[string[], EventsInfo]> = [];
    const errors: EventsError[] = [];
    const controller = new AbortController();
    const ended = stream({
      connect: connectClient,
      name,
      arguments: { tag: 'gap' },
      cursor: 'stale',
      backoff,
      signal: controller.signal,
      onEvents: (events, info) => void batches.push([events.map((e) => e.eventId), info]),
      onError: (error) => void errors.push(error),
    });
    await waitUntil(() => batches.length === 1, 30_000, 'the truncated start');
    expect(batches[0]).toEqual([[], { cursor: `c${server.log.length}`, truncated: true }]);
    server.failStreams({ code: -32603, message: 'UpstreamError', data: { reason: 'upstream 503' } });
    await waitUntil(() => errors.length === 1, 30_000, 'the transient error');
    expect(errors[0]).toBeInstanceOf(EventsError);
    expect(errors[0]).toMatchObject({ code: -32603, message: 'UpstreamError', data: { reason: 'upstream 503' } });
    const event = server.emit(name, { n: 'after the error' });
    await waitUntil(() => batches.length === 2, 30_000, 'an event after the error');
    expect(batches[1]).toEqual([[event.eventId], { cursor: `c${event.seq}`, truncated: false }]);
    expect(streamCalls('gap')).toHaveLength(1);
    controller.abort();
    expect(await ended).toEqual({ reason: 'aborted' });
  });

  it('rejects with a typed error, without retrying, when the server refuses the subscription', async () => {
    const ended = stream({ connect: connectClient, name: 'nothing.here', backoff, onEvents: () => undefined });
    await expect(ended).rejects.toBeInstanceOf(NotFoundError);
  });

  it('ends on abort and closes the stream on the wire', async () => {
    const s = run('abort');
    await waitUntil(() => server.openStreams() > 0, 30_000, 'the stream');
    s.controller.abort();
    expect(await s.ended).toEqual({ reason: 'aborted' });
    await waitUntil(() => server.openStreams() === 0, 30_000, 'the server to see the stream end');
    await waitUntil(() => server.connections() === 0, 30_000, 'every socket closed');
  });
});
