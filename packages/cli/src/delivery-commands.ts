import type { Command } from 'commander';
import type { operations } from '@switchboard/client';
import { orAbsent, session, type Api } from './api.js';
import { CliError, table, type Output } from './output.js';

// switchboard deliveries ls|show and redeliver: a subscription's deliveries, each with its attempts.

type DeliveriesQuery = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;

/** A recorded header set of an attempt, indented under it; nothing when it was not recorded. */
const headerLines = (label: string, headers: Record<string, string> | null): string[] =>
  headers ? [`  ${label}:`, ...Object.entries(headers).map(([name, value]) => `    ${name}: ${value}`)] : [];

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One delivery with its envelope: under the subscription given, or found among the account's subscriptions. */
async function findDelivery(api: Api, deliveryId: string, given?: string) {
  if (!uuid.test(deliveryId)) throw new CliError(`not_found: Delivery not found (${deliveryId} is not a delivery id)`);
  const get = (webhookId: string) => api.getWebhookDelivery({ path: { webhookId, deliveryId } });
  if (given) return get(given);
  const webhooks = await api.listWebhooks({ query: { limit: 100 } });
  for (const w of webhooks.data) {
    const found = await orAbsent(get(w.id));
    if (found) return found;
  }
  throw new CliError('not_found: Delivery not found');
}

export function registerDeliveryCommands(program: Command, out: () => Output) {
  const deliveries = program.command('deliveries').description('Deliveries of a subscription and their attempts');
  deliveries
    .command('ls')
    .description('List recent deliveries of a subscription')
    .requiredOption('--webhook <id>', 'wh_…')
    .option('--status <status>', 'only pending, succeeded, failed or exhausted')
    .option('--event <type>', 'only deliveries of this event type')
    .action(async (opts: { webhook: string; status?: DeliveriesQuery['status']; event?: string }) => {
      const { api } = session();
      const page = await api.listWebhookDeliveries({
        path: { webhookId: opts.webhook },
        query: { limit: 100, status: opts.status, event: opts.event },
      });
      const columns = ['id', 'event', 'status', 'attempts', 'lastResponseStatus', 'createdAt'];
      out().result(page.data, () => table(page.data, columns));
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
      const attempts = await api.listWebhookAttempts({ path: { webhookId }, query: { deliveryId: id, limit: 100 } });
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
      const answer = await api.redeliverWebhookDelivery({ path: { webhookId, deliveryId: id } });
      out().result(answer, () => `Redelivering ${id} (${answer.status})`);
    });
}
