import type { Command } from 'commander';
import { session } from './api.js';
import { count, showRecord, table, type Output } from './output.js';
import { registerWebhookCreateCommand } from './webhook-create.js';

// switchboard webhooks …: the account's subscriptions, and `poll`, which reads a poll subscription.

export function registerWebhookCommands(program: Command, out: () => Output) {
  const webhooks = program.command('webhooks').description('Webhook subscriptions');
  webhooks
    .command('ls')
    .description('List subscriptions')
    .action(async () => {
      const { api } = session();
      const page = await api.listWebhooks({ query: { limit: 100 } });
      out().result(page.data, () => table(page.data, ['id', 'kind', 'status', 'url', 'events']));
    });
  registerWebhookCreateCommand(webhooks, out);
  webhooks
    .command('enable')
    .description('Enable a subscription (zeroes its failure count)')
    .argument('<id>', 'wh_…')
    .option('--recover-since <timestamp>', 'also queue again the deliveries that failed since then (RFC 3339)')
    .action(async (id: string, opts: { recoverSince?: string }) => {
      const { api } = session();
      const body = opts.recoverSince ? { recoverSince: opts.recoverSince } : {};
      showRecord(out(), await api.enableWebhook({ path: { webhookId: id }, body }));
    });
  webhooks
    .command('disable')
    .description('Disable a subscription: its pending deliveries stop until it is enabled')
    .argument('<id>', 'wh_…')
    .action(async (id: string) => {
      const { api } = session();
      showRecord(out(), await api.disableWebhook({ path: { webhookId: id } }));
    });
  webhooks
    .command('rotate-secret')
    .description('A new signing secret; the old one keeps signing for 24 h')
    .argument('<id>', 'wh_…')
    .action(async (id: string) => {
      const { api } = session();
      showRecord(out(), await api.rotateWebhookSecret({ path: { webhookId: id } }));
    });

  program
    .command('poll')
    .description('Read the next deliveries of a poll subscription (GET /v1/webhooks/:id/poll), and commit them')
    .argument('<id>', 'the poll subscription, wh_…')
    .option('--cursor <cursor>', 'read after this cursor (default: after the committed one)')
    .option('--limit <n>', 'at most this many deliveries (1 to 100)', '20')
    .option('--commit', 'store the position after this page as the committed cursor')
    .action(async (id: string, opts: { cursor?: string; limit: string; commit?: boolean }) => {
      const { api } = session();
      const o = out();
      const path = { webhookId: id };
      const page = await api.pollWebhookDeliveries({ path, query: { cursor: opts.cursor, limit: Number(opts.limit) } });
      for (const d of page.data) {
        const line = { type: 'delivery', id: d.id, event: d.event, headers: d.headers, envelope: JSON.parse(d.body) };
        o.result(line, () => `→ ${d.event.padEnd(24)} ${d.id}\n${JSON.stringify(line.envelope, null, 2)}`);
      }
      if (opts.commit) await api.commitWebhookPoll({ path, body: { cursor: page.nextCursor } });
      const end = {
        type: 'cursor',
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
        committed: Boolean(opts.commit),
      };
      o.result(end, () =>
        [
          `${count(page.data.length, 'delivery', 'deliveries')}; next cursor ${page.nextCursor}`,
          opts.commit ? ' (committed)' : ' (not committed: --commit stores it)',
          page.hasMore ? '; more are ready: poll again' : '',
        ].join(''),
      );
    });
}
