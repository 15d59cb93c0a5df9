import type { Knex } from 'knex';

// Ordered delivery (docs/decisions.md#ordered-delivery): a subscription with ordering 'key' gets the deliveries of
// one ordering key (a contact, a conversation, an inbox) one at a time, in commit order.
//
// - webhook_deliveries.ordering_key: set on the deliveries of an ordered subscription (null: unordered), and
//   ordering_seq, their order within the key, taken from one sequence while the key's row is locked, so it
//   follows commit order. Both nullable without a default: a catalog change on the partitioned parent.
// - webhook_ordering_keys: one row per key with a delivery in flight, naming that delivery (its head); the row's
//   lock serialises the producers and the hand-off of one key. A key with nothing pending has no row.
// - webhook_deliveries_queued: the next delivery of a key (lowest ordering_seq among pending), for the hand-off.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks ADD COLUMN ordering text NOT NULL DEFAULT 'none'
    CONSTRAINT webhooks_ordering CHECK (ordering IN ('none', 'key'))`);
  await knex.raw(`ALTER TABLE webhook_deliveries ADD COLUMN ordering_key text, ADD COLUMN ordering_seq bigint`);
  await knex.raw(`CREATE SEQUENCE webhook_delivery_order AS bigint`);
  await knex.raw(`CREATE TABLE webhook_ordering_keys (
    webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    ordering_key text NOT NULL,
    head_id uuid,
    head_created_at timestamptz(3),
    updated_at timestamptz(3) NOT NULL DEFAULT now(),
    PRIMARY KEY (webhook_id, ordering_key)
  )`);
  await knex.raw(`CREATE INDEX webhook_deliveries_queued ON webhook_deliveries (webhook_id, ordering_key, ordering_seq)
    WHERE status = 'pending' AND ordering_key IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX webhook_deliveries_queued`);
  await knex.raw(`DROP TABLE webhook_ordering_keys`);
  await knex.raw(`DROP SEQUENCE webhook_delivery_order`);
  await knex.raw(`ALTER TABLE webhook_deliveries DROP COLUMN ordering_key, DROP COLUMN ordering_seq`);
  await knex.raw(`ALTER TABLE webhooks DROP COLUMN ordering`);
}
