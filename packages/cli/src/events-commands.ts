import {
  connect,
  EventsError,
  listEvents,
  memoryCursorStore,
  poll,
  pollOnce,
  type EventOccurrence,
} from '@switchboard/mcp-events';
import type { Command } from 'commander';
import { currentCredential } from './api.js';
import { CliError, EXIT, table, type Output } from './output.js';

// switchboard events …: the MCP Events extension of a Switchboard MCP endpoint (the account's /v1/mcp, or an
// agent's /v1/agents/:agentId/mcp with --agent), through @switchboard/mcp-events.

interface EndpointOptions {
  agent?: string;
  endpoint?: string;
}

function endpointOf(opts: EndpointOptions): { url: string; token: string } {
  const credential = currentCredential();
  const base = credential.url.replace(/\/+$/, '');
  const path = opts.agent ? `/v1/agents/${encodeURIComponent(opts.agent)}/mcp` : '/v1/mcp';
  return { url: opts.endpoint ?? `${base}${path}`, token: credential.token };
}

/** `--arg k=v`, repeatable: a value that parses as JSON is that value (5, true, {"a":1}), else the string. */
function collectArg(pair: string, args: Record<string, unknown>): Record<string, unknown> {
  const at = pair.indexOf('=');
  if (at <= 0) throw new CliError(`--arg takes key=value, not ${JSON.stringify(pair)}`, EXIT.usage);
  const raw = pair.slice(at + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // A plain string.
  }
  return { ...args, [pair.slice(0, at)]: value };
}

/** Runs `call`, turning the extension's errors and unreachable endpoints into one CLI line. */
async function reporting<T>(url: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof EventsError) throw new CliError(`${err.code} ${err.message}${detail(err.data)}`);
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot use the MCP endpoint ${url}: ${(err as Error).message}`);
  }
}
const detail = (data: unknown) => (data === undefined ? '' : ` ${JSON.stringify(data)}`);

const withEndpoint = (command: Command) =>
  command
    .option('--agent <agentId>', "the agent's endpoint, /v1/agents/:agentId/mcp (default: the account's /v1/mcp)")
    .option('--endpoint <url>', 'any MCP endpoint URL instead');

export function registerEventsCommands(program: Command, out: () => Output) {
  const events = program.command('events').description('MCP Events of an MCP endpoint: list, poll');
  withEndpoint(events.command('list'))
    .description('The event types the endpoint offers (events/list)')
    .action(async (opts: EndpointOptions) => {
      const endpoint = endpointOf(opts);
      const types = await reporting(endpoint.url, async () => {
        const client = await connect(endpoint);
        try {
          return await listEvents(client);
        } finally {
          await client.close();
        }
      });
      const rows = types.map((t) => ({ name: t.name, delivery: t.delivery.join(','), description: t.description }));
      out().result(types, () => table(rows, ['name', 'delivery', 'description']));
    });

  withEndpoint(events.command('poll'))
    .description('Read events of one type (events/poll): once, or with --follow until Ctrl-C')
    .argument('<name>', 'the event type, e.g. message.received')
    .option('--arg <key=value>', 'a subscription argument (repeatable)', collectArg, {})
    .option('--cursor <cursor>', 'read after this cursor (default: from now)')
    .option('--follow', 'keep polling (long polls, nextPollMs honoured) and print events as they come')
    .option('--timeout-ms <ms>', 'how long the server may hold each poll open', '30000')
    .action(async (name: string, opts: EndpointOptions & PollCommandOptions) => {
      const endpoint = endpointOf(opts);
      const o = out();
      const timeoutMs = Number(opts.timeoutMs);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 0)
        throw new CliError('--timeout-ms takes a whole number', EXIT.usage);
      const common = { name, arguments: opts.arg, cursor: opts.cursor ?? null };
      if (!opts.follow) {
        const page = await reporting(endpoint.url, async () => {
          const client = await connect(endpoint);
          try {
            return await pollOnce(client, { ...common, timeoutMs: 0 });
          } finally {
            await client.close();
          }
        });
        page.events.forEach((e) => printEvent(o, e));
        printCursor(o, page.cursor, page.truncated, page.hasMore);
        return;
      }
      await follow(o, endpoint, { ...common, timeoutMs });
    });
}

interface PollCommandOptions {
  arg: Record<string, unknown>;
  cursor?: string;
  follow?: boolean;
  timeoutMs: string;
}

async function follow(
  o: Output,
  endpoint: { url: string; token: string },
  params: { name: string; arguments: Record<string, unknown>; cursor: string | null; timeoutMs: number },
) {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  o.note(`Polling ${params.name} at ${endpoint.url}. Ctrl-C to quit.`);
  try {
    await reporting(endpoint.url, () =>
      poll({
        ...params,
        client: () => connect(endpoint),
        store: memoryCursorStore(),
        signal: controller.signal,
        onEvents: (events, info) => {
          events.forEach((e) => printEvent(o, e));
          printCursor(o, info.cursor, info.truncated, false);
        },
      }),
    );
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function printEvent(o: Output, e: EventOccurrence) {
  const line = { type: 'event', ...e };
  o.result(line, () => `→ ${e.name.padEnd(24)} ${e.eventId}  ${e.timestamp}\n${JSON.stringify(e.data, null, 2)}`);
}

function printCursor(o: Output, cursor: string | null, truncated: boolean, hasMore: boolean) {
  o.result({ type: 'cursor', cursor, truncated, hasMore }, () =>
    [
      `cursor ${cursor ?? '(none: no replay)'}`,
      truncated ? '; truncated: events were skipped' : '',
      hasMore ? '; more are ready: poll again with --cursor' : '',
    ].join(''),
  );
}
