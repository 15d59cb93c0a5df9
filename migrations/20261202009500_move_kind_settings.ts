import type { Knex } from 'knex';

// A destination kind's own fields live in one column (docs/adr/0094-destination-registry.md): webhooks.settings,
// by their API names, read and written by the kind's module alone. rabbitmq's exchange and routing key and
// nats's subject move there; what each kind requires is its module's zod schema, so the CHECK that named them goes.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks ADD COLUMN settings jsonb NOT NULL DEFAULT '{}'::jsonb`);
  await knex.raw(`UPDATE webhooks SET settings = jsonb_strip_nulls(jsonb_build_object(
      'exchange', exchange, 'routingKey', routing_key, 'subject', subject))
    WHERE exchange IS NOT NULL OR routing_key IS NOT NULL OR subject IS NOT NULL`);
  await knex.raw(`ALTER TABLE webhooks DROP CONSTRAINT webhooks_broker_fields`);
  await knex.raw(`ALTER TABLE webhooks DROP COLUMN exchange, DROP COLUMN routing_key, DROP COLUMN subject`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks ADD COLUMN exchange text, ADD COLUMN routing_key text, ADD COLUMN subject text`);
  await knex.raw(`UPDATE webhooks SET exchange = settings->>'exchange', routing_key = settings->>'routingKey',
    subject = settings->>'subject'`);
  await knex.raw(`ALTER TABLE webhooks ADD CONSTRAINT webhooks_broker_fields CHECK (
    CASE kind
      WHEN 'rabbitmq' THEN broker_url_sealed IS NOT NULL AND exchange IS NOT NULL AND routing_key IS NOT NULL
      WHEN 'nats' THEN broker_url_sealed IS NOT NULL AND subject IS NOT NULL
      ELSE true
    END)`);
  await knex.raw(`ALTER TABLE webhooks DROP COLUMN settings`);
}
