import type { Command } from 'commander';
import { must, mustOrAbsent, session, type Api } from './api.js';
import type { operations } from './generated/api-types.js';
import { CliError, EXIT, table, type Output } from './output.js';

// The everyday commands: thin wrappers over the public API (the typed client), one request or a few each.

type Rows = Array<Record<string, unknown>>;
type DeliveriesQuery = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;
const list = (o: Output, rows: Rows, columns: string[]) => o.result(rows, () => table(rows, columns));
const show = (o: Output, value: Record<string, unknown>) =>
  o.result(value, () =>
    Object.entries(value)
      .map(([k, v]) => `${`${k}:`.padEnd(26)} ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
      .join('\n'),
  );

/** A recorded header set of an attempt, indented under it; nothing when it was not recorded. */
const headerLines = (label: string, headers: Record<string, string> | null): string[] =>
  headers ? [`  ${label}:`, ...Object.entries(headers).map(([name, value]) => `    ${name}: ${value}`)] : [];

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One delivery with its envelope: under the subscription given, or found among the account's subscriptions. */
async function findDelivery(api: Api, deliveryId: string, given?: string) {
  if (!uuid.test(deliveryId)) throw new CliError(`not_found: Delivery not found (${deliveryId} is not a delivery id)`);
  const get = (webhookId: string) =>
    api.GET('/v1/webhooks/{webhookId}/deliveries/{deliveryId}', { params: { path: { webhookId, deliveryId } } });
  if (given) return must(get(given));
  const webhooks = await must(api.GET('/v1/webhooks', { params: { query: { limit: 100 } } }));
  for (const w of webhooks.data) {
    const found = await mustOrAbsent(get(w.id));
    if (found) return found;
  }
  throw new CliError('not_found: Delivery not found');
}

interface CreateOptions {
  events: string;
  description?: string;
  kind?: string;
  exchange?: string;
  routingKey?: string;
  subject?: string;
  filter?: string;
  signatureScheme?: string;
}

/** --filter's JSON, or a usage error (exit 2) before anything is sent. */
function filterOption(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`--filter must be JSON, not ${JSON.stringify(text)}`, EXIT.usage);
  }
}

export function registerResourceCommands(program: Command, out: () => Output) {
  const webhooks = program.command('webhooks').description('Webhook subscriptions');
  webhooks
    .command('ls')
    .description('List subscriptions')
    .action(async () => {
      const { api } = session();
      const page = await must(api.GET('/v1/webhooks', { params: { query: { limit: 100 } } }));
      list(out(), page.data, ['id', 'kind', 'status', 'url', 'events']);
    });
  webhooks
    .command('create')
    .description('Subscribe a destination to events (prints the signing secret once, and a poll credential)')
    .argument('[url]', 'an https:// URL; amqp(s):// for --kind rabbitmq, nats:// or tls:// for nats; none for poll')
    .requiredOption('--events <names>', 'comma-separated event types')
    .option('--description <text>', 'a note for people')
    .option('--kind <kind>', 'http (the default), rabbitmq, nats or poll')
    .option('--exchange <name>', 'rabbitmq: the exchange ("" is the default exchange)')
    .option('--routing-key <template>', 'rabbitmq: the routing key; {event} is replaced by the event name')
    .option('--subject <template>', 'nats: the JetStream subject; {event} is replaced by the event name')
    .option('--filter <json>', 'only the events whose payload matches, e.g. \'{"channel":{"$in":["sms"]}}\'')
    .option(
      '--signature-scheme <scheme>',
      'hmac-sha256 (a shared secret) or ed25519 (the receiver verifies with the public key shown); the API decides',
    )
    .action(async (url: string | undefined, opts: CreateOptions) => {
      const { api } = session();
      // Passed through as given: the API validates each field (kind, its own fields, the filter, the scheme) and
      // answers 400 naming the one it refuses.
      const body = {
        url,
        events: opts.events.split(',').map((e) => e.trim()),
        description: opts.description,
        kind: opts.kind,
        exchange: opts.exchange,
        routingKey: opts.routingKey,
        subject: opts.subject,
        filter: opts.filter === undefined ? undefined : filterOption(opts.filter),
        signatureScheme: opts.signatureScheme,
      } as never;
      show(out(), await must(api.POST('/v1/webhooks', { body })));
    });
  webhooks
    .command('enable')
    .description('Enable a subscription (zeroes its failure count)')
    .argument('<id>', 'wh_…')
    .option('--recover-since <iso>', 'also queue again the deliveries that failed since then')
    .action(async (id: string, opts: { recoverSince?: string }) => {
      const { api } = session();
      const body = opts.recoverSince ? { recoverSince: opts.recoverSince } : {};
      show(
        out(),
        await must(api.POST('/v1/webhooks/{webhookId}/enable', { params: { path: { webhookId: id } }, body })),
      );
    });
  webhooks
    .command('disable')
    .description('Disable a subscription: its pending deliveries stop until it is enabled')
    .argument('<id>', 'wh_…')
    .action(async (id: string) => {
      const { api } = session();
      show(out(), await must(api.POST('/v1/webhooks/{webhookId}/disable', { params: { path: { webhookId: id } } })));
    });
  webhooks
    .command('rotate-secret')
    .description('A new signing secret; the old one keeps signing for 24 h')
    .argument('<id>', 'wh_…')
    .action(async (id: string) => {
      const { api } = session();
      show(
        out(),
        await must(api.POST('/v1/webhooks/{webhookId}/rotate-secret', { params: { path: { webhookId: id } } })),
      );
    });

  const deliveries = program.command('deliveries').description('Deliveries of a subscription and their attempts');
  deliveries
    .command('ls')
    .description('List recent deliveries of a subscription')
    .requiredOption('--webhook <id>', 'wh_…')
    .option('--status <status>', 'only pending, succeeded, failed or exhausted')
    .option('--event <type>', 'only deliveries of this event type')
    .action(async (opts: { webhook: string; status?: DeliveriesQuery['status']; event?: string }) => {
      const { api } = session();
      const page = await must(
        api.GET('/v1/webhooks/{webhookId}/deliveries', {
          params: { path: { webhookId: opts.webhook }, query: { limit: 100, status: opts.status, event: opts.event } },
        }),
      );
      list(out(), page.data, ['id', 'event', 'status', 'attempts', 'lastResponseStatus', 'createdAt']);
    });
  deliveries
    .command('show')
    .description('A delivery: its request body, and its attempts with what each sent and got back')
    .argument('<id>', 'the delivery id (a UUID)')
    .option('--webhook <id>', 'its subscription (found by asking each subscription when left out)')
    .action(async (id: string, opts: { webhook?: string }) => {
      const { api } = session();
      const { envelope, ...delivery } = await findDelivery(api, id, opts.webhook);
      const { webhookId } = delivery;
      const attempts = await must(
        api.GET('/v1/webhooks/{webhookId}/attempts', {
          params: { path: { webhookId }, query: { deliveryId: id, limit: 100 } },
        }),
      );
      const o = out();
      o.result({ deliveryId: id, webhookId, delivery, envelope, attempts: attempts.data }, () =>
        [
          `Delivery ${id} (${webhookId}): ${delivery.status}`,
          'request body (the signed envelope, the same for every attempt):',
          JSON.stringify(envelope, null, 2),
          attempts.data.length
            ? table(attempts.data, ['attemptNumber', 'status', 'responseStatus', 'error', 'durationMs', 'createdAt'])
            : 'No attempt yet.',
          ...attempts.data.map((a) =>
            [
              `#${a.attemptNumber} ${a.url}`,
              ...headerLines('request headers', a.requestHeaders),
              ...headerLines('response headers', a.responseHeaders),
              `  ${a.errorMessage ?? a.responseBody ?? ''}`,
            ].join('\n'),
          ),
        ].join('\n'),
      );
    });

  program
    .command('redeliver')
    .description('Deliver again, with the same envelope id')
    .argument('<delivery-id>', 'the delivery id (a UUID)')
    .option('--webhook <id>', 'its subscription (found by asking each subscription when left out)')
    .action(async (id: string, opts: { webhook?: string }) => {
      const { api } = session();
      const webhookId = opts.webhook ?? (await findDelivery(api, id)).webhookId;
      const answer = await must(
        api.POST('/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', {
          params: { path: { webhookId, deliveryId: id } },
        }),
      );
      out().result(answer, () => `Redelivering ${id} (${answer.status})`);
    });

  const keys = program.command('keys').description('Account keys and per-agent keys');
  keys
    .command('ls')
    .description('List keys (metadata only)')
    .action(async () => {
      const { api } = session();
      const page = await must(api.GET('/v1/api_keys', { params: { query: { limit: 100 } } }));
      list(out(), page.data, ['id', 'name', 'keyType', 'status', 'scopes', 'expiresAt']);
    });
  keys
    .command('create')
    .description('Create an account key (prints the key once)')
    .requiredOption('--name <name>', 'what it is for')
    .option('--scopes <list>', 'comma-separated scopes (default: all of the account’s)')
    .action(async (opts: { name: string; scopes?: string }) => {
      const { api } = session();
      const body = { name: opts.name, ...(opts.scopes ? { scopes: opts.scopes.split(',') } : {}) };
      show(out(), await must(api.POST('/v1/api_keys', { body })));
    });
  keys
    .command('rotate')
    .description('A new secret for a key; the old one works for KEY_ROTATION_GRACE_SECONDS')
    .argument('<id>', 'key_…')
    .action(async (id: string) => {
      const { api } = session();
      show(out(), await must(api.POST('/v1/api_keys/{keyId}/rotate', { params: { path: { keyId: id } } })));
    });
  keys
    .command('deactivate')
    .description('Deactivate a key for good')
    .argument('<id>', 'key_…')
    .action(async (id: string) => {
      const { api } = session();
      show(out(), await must(api.POST('/v1/api_keys/{keyId}/deactivate', { params: { path: { keyId: id } } })));
    });

  const agents = program.command('agents').description('Agents');
  agents
    .command('ls')
    .description('List agents')
    .action(async () => {
      const { api } = session();
      const page = await must(api.GET('/v1/agents', { params: { query: { limit: 100 } } }));
      list(out(), page.data, ['id', 'name', 'status', 'createdAt']);
    });
}
