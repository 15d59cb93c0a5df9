import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connect,
  cursorKey,
  fileCursorStore,
  listEvents,
  NotFoundError,
  poll,
  type EventOccurrence,
  type EventsInfo,
} from '@switchboard/mcp-events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEventsServer, type EventsServer } from '../helpers/events-server.js';
import { waitUntil } from '../helpers/wait.js';

// @switchboard/mcp-events' poll loop against a real MCP server speaking the Events extension (the fixture in
// test/helpers/events-server.ts): pages drained while hasMore, nextPollMs honoured, cursors persisted after the
// handler, typed errors, and an abort that closes what it held.

let server: EventsServer;
const dir = mkdtempSync(join(tmpdir(), 'mcp-events-poll-'));
const name = 'message.received';
const source = () => connect({ url: server.url });

beforeAll(async () => {
  server = await startEventsServer({ pageSize: 2, nextPollMs: 750 });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A recorder of the loop's waits between polls; it waits no time itself (the server's long poll paces it). */
function recordWaits() {
  const waits: number[] = [];
  return { waits, delay: async (ms: number) => void waits.push(ms) };
}

describe('listEvents', () => {
  it('reads every page of events/list', async () => {
    const client = await source();
    const events = await listEvents(client);
    await client.close();
    expect(events.map((e) => [e.name, e.delivery])).toEqual([
      ['message.received', ['poll', 'push', 'webhook']],
      ['contact.created', ['poll']],
    ]);
    expect(server.calls.filter((c) => c.method === 'events/list')).toHaveLength(2);
  });
});

describe('poll', () => {
  it('drains a backlog page after page without waiting, then waits nextPollMs, persisting each cursor', async () => {
    const start = server.log.length;
    for (let i = 0; i < 5; i++) server.emit(name, { n: i });
    server.emit('contact.created', { other: true });
    const store = fileCursorStore(join(dir, 'drain.json'));
    const args = { inbox: 'drain' };
    await store.save(cursorKey(name, args), `c${start}`);
    const batches: Array<{ ids: string[]; info: EventsInfo }> = [];
    const { waits, delay } = recordWaits();
    const controller = new AbortController();
    const running = poll({
      client: source,
      name,
      arguments: args,
      store,
      minIntervalMs: 100,
      timeoutMs: 60_000,
      delay,
      signal: controller.signal,
      onEvents: (events, info) => void batches.push({ ids: events.map((e) => e.eventId), info }),
    });
    const polls = () => server.calls.filter((c) => c.method === 'events/poll' && c.params.arguments?.inbox === 'drain');
    await waitUntil(() => batches.flatMap((b) => b.ids).length === 5, 30_000, 'five events');
    // The poll after the last page, held open by the server: the loop waited and went on.
    await waitUntil(() => polls().length === 4, 30_000, 'the next poll');
    controller.abort();
    await running;
    expect(batches.map((b) => b.ids)).toEqual([
      [`evt_${start + 1}`, `evt_${start + 2}`],
      [`evt_${start + 3}`, `evt_${start + 4}`],
      [`evt_${start + 5}`],
    ]);
    // Two pages with hasMore were followed at once; the last page's nextPollMs (above the floor) was waited.
    expect(waits).toEqual([750]);
    expect(polls().map((c) => c.params.cursor)).toEqual([
      `c${start}`,
      `c${start + 2}`,
      `c${start + 4}`,
      `c${start + 6}`,
    ]);
    expect(JSON.parse(readFileSync(join(dir, 'drain.json'), 'utf8'))).toEqual({
      [cursorKey(name, args)]: `c${start + 6}`,
    });
  });

  it('waits at least its floor when the server asks for less', async () => {
    const { waits, delay } = recordWaits();
    const controller = new AbortController();
    const running = poll({
      client: source,
      name,
      cursor: null,
      minIntervalMs: 2_000,
      delay: async (ms) => {
        await delay(ms);
        controller.abort();
      },
      signal: controller.signal,
      onEvents: () => undefined,
    });
    await running;
    expect(waits).toEqual([2_000]);
  });

  it('starts from now with a null cursor, and hands a truncated gap to onEvents with the fresh cursor', async () => {
    const calls: Array<[EventOccurrence[], EventsInfo]> = [];
    const controller = new AbortController();
    const running = poll({
      client: source,
      name,
      cursor: 'stale',
      timeoutMs: 0,
      minIntervalMs: 0,
      signal: controller.signal,
      onEvents: (events, info) => {
        calls.push([events, info]);
        controller.abort();
      },
    });
    await running;
    expect(calls).toEqual([[[], { cursor: `c${server.log.length}`, truncated: true }]]);
  });

  it('keeps the old cursor when onEvents throws, so the next run gets the same events again', async () => {
    const store = fileCursorStore(join(dir, 'again.json'));
    const args = { inbox: 'again' };
    await store.save(cursorKey(name, args), `c${server.log.length}`);
    const first = server.emit(name, { n: 'again' });
    const failing = poll({
      client: source,
      name,
      arguments: args,
      store,
      onEvents: () => {
        throw new Error('the agent crashed');
      },
    });
    await expect(failing).rejects.toThrow('the agent crashed');
    expect(await store.load(cursorKey(name, args))).toBe(`c${first.seq - 1}`);

    const seen: string[] = [];
    const controller = new AbortController();
    await poll({
      client: source,
      name,
      arguments: args,
      store,
      signal: controller.signal,
      onEvents: (events) => {
        seen.push(...events.map((e) => e.eventId));
        controller.abort();
      },
    });
    expect(seen).toEqual([first.eventId]);
    expect(await store.load(cursorKey(name, args))).toBe(`c${first.seq}`);
  });

  it('rejects with a typed error when the server does not know the event', async () => {
    const running = poll({ client: source, name: 'nothing.here', cursor: 'c0', onEvents: () => undefined });
    await expect(running).rejects.toBeInstanceOf(NotFoundError);
    await expect(running).rejects.toMatchObject({ code: -32011, data: { kind: 'event' } });
  });

  it('stops on abort during a held long poll and leaves no socket open', async () => {
    const controller = new AbortController();
    const held = server.calls.length;
    const running = poll({
      client: source,
      name,
      cursor: `c${server.log.length}`,
      timeoutMs: 120_000,
      signal: controller.signal,
      onEvents: () => undefined,
    });
    await waitUntil(() => server.calls.slice(held).some((c) => c.method === 'events/poll'), 30_000, 'a held poll');
    controller.abort();
    await running;
    await waitUntil(() => server.connections() === 0, 30_000, 'every socket closed');
  });
});
