import type { Command } from 'commander';
import { session } from './api.js';
import { CliError, EXIT, showRecord, type Output } from './output.js';

// switchboard webhooks create: a subscription of any destination kind (docs/webhooks.md#destination-kinds). The
// flags of the kinds are the rows of KIND_OPTIONS (the CLI imports nothing of the service, so it keeps its own
// table, written for a terminal); `--setting name=value` passes any kind's field, so a kind without a flag here
// works too. Every field is passed through as given and the API validates it, answering 400 naming the one it
// refuses.

/** Each destination kind's own fields, one option each: its flag, the field of POST /v1/webhooks, its help. */
const KIND_OPTIONS = [
  { flags: '--exchange <name>', field: 'exchange', help: 'rabbitmq: the exchange ("" is the default exchange)' },
  {
    flags: '--routing-key <template>',
    field: 'routingKey',
    help: 'rabbitmq: the routing key; {event} is replaced by the event name',
  },
  {
    flags: '--subject <template>',
    field: 'subject',
    help: 'nats: the JetStream subject; {event} is replaced by the event name',
  },
] as const;

interface CreateOptions {
  events: string;
  description?: string;
  kind?: string;
  filter?: string;
  signatureScheme?: string;
  setting?: Record<string, unknown>;
  [kindField: string]: string | Record<string, unknown> | undefined;
}

/** --setting name=value, repeatable: a kind's field by its API name; a whole number is sent as a number. */
function settingOption(pair: string, seen: Record<string, unknown> = {}): Record<string, unknown> {
  const at = pair.indexOf('=');
  if (at < 1) throw new CliError(`--setting takes name=value, not ${JSON.stringify(pair)}`, EXIT.usage);
  const value = pair.slice(at + 1);
  return { ...seen, [pair.slice(0, at)]: /^\d+$/.test(value) ? Number(value) : value };
}

/** --filter's JSON, or a usage error (exit 2) before anything is sent. */
function filterOption(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`--filter must be JSON, not ${JSON.stringify(text)}`, EXIT.usage);
  }
}

export function registerWebhookCreateCommand(webhooks: Command, out: () => Output) {
  const create = webhooks
    .command('create')
    .description('Subscribe a destination to events (prints the signing secret once, and a poll credential)')
    .argument('[url]', 'an https:// URL; amqp(s):// for --kind rabbitmq, nats:// or tls:// for nats; none for poll')
    .requiredOption('--events <names>', 'comma-separated event types')
    .option('--description <text>', 'a note for people')
    .option('--kind <kind>', 'http (the default), rabbitmq, nats or poll');
  for (const option of KIND_OPTIONS) create.option(option.flags, option.help);
  create
    .option('--setting <name=value>', 'another field of the kind, by its API name (repeatable)', settingOption)
    .option('--filter <json>', 'only the events whose payload matches, e.g. \'{"channel":{"$in":["sms"]}}\'')
    .option(
      '--signature-scheme <scheme>',
      'hmac-sha256 (a shared secret) or ed25519 (the receiver verifies with the public key shown); the API decides',
    )
    .action(async (url: string | undefined, opts: CreateOptions) => {
      const { api } = session();
      const kindFields = Object.fromEntries(KIND_OPTIONS.map(({ field }) => [field, opts[field]]));
      const body = {
        url,
        events: opts.events.split(',').map((e) => e.trim()),
        description: opts.description,
        kind: opts.kind,
        ...kindFields,
        ...opts.setting,
        filter: opts.filter === undefined ? undefined : filterOption(opts.filter),
        signatureScheme: opts.signatureScheme,
      } as never;
      showRecord(out(), await api.createWebhook({ body }));
    });
}
