import type { Knex } from 'knex';

// Broker destinations (docs/adr/0088-broker-destinations.md): a subscription whose deliveries are published to a
// RabbitMQ exchange or a NATS JetStream subject instead of POSTed. The broker URL, credentials included, is sealed
// like a signing secret (broker_url_sealed); `url` holds it without its password, for display and attempt records.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks DROP CONSTRAINT webhooks_kind`);
  await knex.raw(`ALTER TABLE webhooks ADD CONSTRAINT webhooks_kind
    CHECK (kind IN ('http', 'stream', 'rabbitmq', 'nats'))`);
  await knex.raw(`ALTER TABLE webhooks
    ADD COLUMN broker_url_sealed text,
    ADD COLUMN exchange text,
    ADD COLUMN routing_key text,
    ADD COLUMN subject text`);
  await knex.raw(`ALTER TABLE webhooks ADD CONSTRAINT webhooks_broker_fields CHECK (
    CASE kind
      WHEN 'rabbitmq' THEN broker_url_sealed IS NOT NULL AND exchange IS NOT NULL AND routing_key IS NOT NULL
      WHEN 'nats' THEN broker_url_sealed IS NOT NULL AND subject IS NOT NULL
      ELSE true
    END)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DELETE FROM webhooks WHERE kind IN ('rabbitmq', 'nats')`);
  await knex.raw(`ALTER TABLE webhooks DROP CONSTRAINT webhooks_broker_fields`);
  await knex.raw(`ALTER TABLE webhooks DROP COLUMN broker_url_sealed, DROP COLUMN exchange,
    DROP COLUMN routing_key, DROP COLUMN subject`);
  await knex.raw(`ALTER TABLE webhooks DROP CONSTRAINT webhooks_kind`);
  await knex.raw(`ALTER TABLE webhooks ADD CONSTRAINT webhooks_kind CHECK (kind IN ('http', 'stream'))`);
}
