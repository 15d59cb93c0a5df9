import type { Command } from 'commander';
import { session } from './api.js';
import { showRecord, table, type Output } from './output.js';

// The everyday commands on keys and agents: thin wrappers over the public API (@switchboard/client), one request each.

type Rows = Array<Record<string, unknown>>;
const list = (o: Output, rows: Rows, columns: string[]) => o.result(rows, () => table(rows, columns));

interface CapOptions {
  spendCap?: string;
  refill?: string;
  refillDay?: string;
  limit?: string[];
}

/** `--limit name=limit/durationMs`, repeatable: a named rate limit. */
const collect = (value: string, previous: string[] = []) => [...previous, value];
function parseLimit(spec: string) {
  const m = /^([A-Za-z0-9_.-]+)=(\d+)\/(\d+)$/.exec(spec);
  if (!m) throw new Error(`--limit ${spec}: write it name=limit/durationMs, e.g. burst=10/1000`);
  return { name: m[1]!, limit: Number(m[2]), durationMs: Number(m[3]) };
}

/** The spend-cap and rate-limit fields of a create or edit body, from the options given (the API judges them). */
function capFields(opts: CapOptions) {
  const number = (v: string) => (v === 'none' ? null : Number(v));
  return {
    ...(opts.spendCap !== undefined ? { spendCapCredits: number(opts.spendCap) } : {}),
    ...(opts.refill !== undefined
      ? { spendCapInterval: opts.refill === 'none' ? null : (opts.refill as 'daily' | 'monthly') }
      : {}),
    ...(opts.refillDay !== undefined ? { spendCapRefillDay: Number(opts.refillDay) } : {}),
    ...(opts.limit ? { rateLimits: opts.limit[0] === 'none' ? [] : opts.limit.map(parseLimit) } : {}),
  };
}

const capOptions = (c: Command) =>
  c
    .option('--spend-cap <credits>', "credit ceiling ('none': uncapped)")
    .option('--refill <interval>', "the cap refills 'daily' or 'monthly' (UTC); 'none': never")
    .option('--refill-day <day>', 'the day of the month a monthly cap refills (1-31)')
    .option('--limit <name=limit/durationMs>', "a named rate limit, repeatable ('none' removes them)", collect);

export function registerResourceCommands(program: Command, out: () => Output) {
  const keys = program.command('keys').description('Account keys and per-agent keys');
  keys
    .command('ls')
    .description('List keys (metadata only)')
    .action(async () => {
      const { api } = session();
      const page = await api.listApiKeys({ query: { limit: 100 } });
      list(out(), page.data, ['id', 'name', 'keyType', 'status', 'scopes', 'remainingCredits', 'expiresAt']);
    });
  keys
    .command('show')
    .description("A key's metadata: its cap, what remains, its refill and its rate limits")
    .argument('<id>', 'key_…')
    .action(async (id: string) => {
      const { api } = session();
      showRecord(out(), await api.getApiKey({ path: { keyId: id } }));
    });
  capOptions(
    keys
      .command('create')
      .description('Create an account key (prints the key once)')
      .requiredOption('--name <name>', 'what it is for')
      .option('--scopes <list>', 'comma-separated scopes (default: all of the account’s)'),
  ).action(async (opts: { name: string; scopes?: string } & CapOptions) => {
    const { api } = session();
    const body = { name: opts.name, ...(opts.scopes ? { scopes: opts.scopes.split(',') } : {}), ...capFields(opts) };
    showRecord(out(), await api.createAccountKey({ body }));
  });
  capOptions(
    keys
      .command('edit')
      .description("Change a key's name, spend cap, refill or rate limits")
      .argument('<id>', 'key_…')
      .option('--name <name>', 'a new name'),
  ).action(async (id: string, opts: { name?: string } & CapOptions) => {
    const { api } = session();
    const body = { ...(opts.name ? { name: opts.name } : {}), ...capFields(opts) };
    showRecord(out(), await api.updateApiKey({ path: { keyId: id }, body }));
  });
  keys
    .command('usage')
    .description("A key's requests per hour by outcome (default: the last 24 hours)")
    .argument('<id>', 'key_…')
    .option('--from <time>', 'ISO 8601 start')
    .option('--to <time>', 'ISO 8601 end')
    .action(async (id: string, opts: { from?: string; to?: string }) => {
      const { api } = session();
      const query = { ...(opts.from ? { from: opts.from } : {}), ...(opts.to ? { to: opts.to } : {}) };
      const usage = await api.getApiKeyUsage({ path: { keyId: id }, query });
      const rows = usage.hours.map((h) => ({ hour: h.hour, ...h.outcomes }));
      const o = out();
      o.result(usage, () =>
        [
          `totals: ${
            Object.entries(usage.totals)
              .filter(([, n]) => n > 0)
              .map(([k, n]) => `${k} ${n}`)
              .join(', ') || 'no requests'
          }`,
          ...(rows.length
            ? ['', table(rows, ['hour', 'valid', 'rate_limited', 'spend_cap_exceeded', 'insufficient_scope'])]
            : []),
        ].join('\n'),
      );
    });
  keys
    .command('rotate')
    .description('A new secret for a key; the old one works for KEY_ROTATION_GRACE_SECONDS')
    .argument('<id>', 'key_…')
    .action(async (id: string) => {
      const { api } = session();
      showRecord(out(), await api.rotateApiKey({ path: { keyId: id } }));
    });
  keys
    .command('deactivate')
    .description('Deactivate a key for good')
    .argument('<id>', 'key_…')
    .action(async (id: string) => {
      const { api } = session();
      showRecord(out(), await api.deactivateApiKey({ path: { keyId: id } }));
    });

  const agents = program.command('agents').description('Agents');
  agents
    .command('ls')
    .description('List agents')
    .action(async () => {
      const { api } = session();
      const page = await api.listAgents({ query: { limit: 100 } });
      list(out(), page.data, ['id', 'name', 'status', 'createdAt']);
    });
}
