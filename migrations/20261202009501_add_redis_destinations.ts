import type { Knex } from 'knex';

// Redis Streams destinations (docs/webhooks.md#destination-kinds): the kind joins the webhooks.kind CHECK; its
// fields live in webhooks.settings and its sealed URL in broker_url_sealed, as every kind's do.

const KINDS = `('http', 'stream', 'rabbitmq', 'nats', 'poll', 'redis')`;
const KINDS_BEFORE = `('http', 'stream', 'rabbitmq', 'nats', 'poll')`;

async function replaceKindCheck(knex: Knex, kinds: string): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks DROP CONSTRAINT webhooks_kind`);
  await knex.raw(`ALTER TABLE webhooks ADD CONSTRAINT webhooks_kind CHECK (kind IN ${kinds})`);
}

export async function up(knex: Knex): Promise<void> {
  await replaceKindCheck(knex, KINDS);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DELETE FROM webhooks WHERE kind = 'redis'`);
  await replaceKindCheck(knex, KINDS_BEFORE);
}
