import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../helpers/cli-process.js';
import { startEventsServer, type EventsServer } from '../helpers/events-server.js';
import { waitUntil } from '../helpers/wait.js';

// `switchboard events list|poll` as a person runs them, against a real MCP server speaking the Events extension
// (test/helpers/events-server.ts) given with --endpoint.

let server: EventsServer;
const env = { SWITCHBOARD_API_KEY: 'fixture-token', SWITCHBOARD_URL: 'http://127.0.0.1:9' };
const name = 'message.received';

beforeAll(async () => {
  server = await startEventsServer({ pageSize: 2 });
});
afterAll(() => server?.close());

describe('switchboard events', () => {
  it('list prints every event type of every page', async () => {
    const human = await runCli(['events', 'list', '--endpoint', server.url], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/message\.received\s+poll,push,webhook\s+A message arrived/);
    expect(human.stdout).toMatch(/contact\.created\s+poll\s+A contact was created/);
    const json = await runCli(['events', 'list', '--endpoint', server.url, '--json'], env);
    expect(JSON.parse(json.stdout).map((e: { name: string }) => e.name)).toEqual([name, 'contact.created']);
  });

  it('poll reads one page after --cursor, with --arg passed as the subscription arguments', async () => {
    const start = server.log.length;
    const emitted = [1, 2, 3].map((n) => server.emit(name, { n }));
    const args = ['events', 'poll', name, '--cursor', `c${start}`, '--arg', 'tag=once', '--arg', 'limit=5'];
    const res = await runCli([...args, '--endpoint', server.url, '--json'], env);
    expect(res.code).toBe(0);
    const lines = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      expect.objectContaining({ type: 'event', eventId: emitted[0]!.eventId, data: { n: 1 } }),
      expect.objectContaining({ type: 'event', eventId: emitted[1]!.eventId, data: { n: 2 } }),
      { type: 'cursor', cursor: `c${emitted[1]!.seq}`, truncated: false, hasMore: true },
    ]);
    const call = server.calls.filter((c) => c.method === 'events/poll').at(-1);
    expect(call!.params.arguments).toEqual({ tag: 'once', limit: 5 });
  });

  it('poll --follow prints events as they come and ends cleanly on Ctrl-C', async () => {
    const polls = () => server.calls.filter((c) => c.method === 'events/poll' && c.params.arguments?.tag === 'follow');
    const cli = startCli(
      ['events', 'poll', name, '--follow', '--arg', 'tag=follow', '--endpoint', server.url, '--json'],
      env,
    );
    // Its first poll (cursor null) answers at once with the current position; the next one is held open.
    await waitUntil(() => polls().length >= 2, 30_000, 'a held poll');
    const first = server.emit(name, { n: 'first' });
    await cli.waitForJson((l) => l.type === 'event' && l.eventId === first.eventId);
    const second = server.emit(name, { n: 'second' });
    await cli.waitForJson((l) => l.type === 'event' && l.eventId === second.eventId);
    expect(
      cli
        .json()
        .filter((l) => l.type === 'cursor')
        .at(-1),
    ).toEqual({
      type: 'cursor',
      cursor: `c${second.seq}`,
      truncated: false,
      hasMore: false,
    });
    cli.proc.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    expect(cli.json().filter((l) => l.type === 'event')).toHaveLength(2);
  });

  it('reports the extension’s errors in one line and exits 1; a malformed --arg exits 2', async () => {
    const missing = await runCli(['events', 'poll', 'nothing.here', '--cursor', 'c0', '--endpoint', server.url], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('switchboard: -32011 NotFound {"kind":"event"}\n');
    const usage = await runCli(['events', 'poll', name, '--arg', 'novalue', '--endpoint', server.url], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--arg takes key=value');
  });
});
