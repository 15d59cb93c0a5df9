import type { Knex } from 'knex';

// A delivery is found by its event through the primary key instead of webhook_deliveries_event: it shares its
// event's created_at and its UUIDv7 id carries that millisecond (findPendingDeliveriesOfEvent). The index cost
// two entries per delivery, one at the fan-out's insert and one at its success, which is not a HOT update.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX webhook_deliveries_event`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)`);
}
