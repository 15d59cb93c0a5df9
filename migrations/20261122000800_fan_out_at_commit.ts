import type { Knex } from 'knex';

// Delivery rows are now written in the emitting transaction itself (src/delivery/sql/fan-out.ts), so the outbox
// a sweep reads is the deliveries table: a delivery still pending with no attempt and never touched since it
// was inserted may have missed its after-commit enqueue. events.dispatched_at has no reader left.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX webhook_deliveries_unsent ON webhook_deliveries (created_at, id) WHERE status = 'pending' AND attempts = 0`,
  );
  await knex.raw(`DROP INDEX IF EXISTS events_undispatched`);
  await knex.schema.alterTable('events', (t) => t.dropColumn('dispatched_at'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => t.timestamp('dispatched_at', { useTz: true, precision: 3 }));
  await knex.raw(`UPDATE events SET dispatched_at = created_at`);
  await knex.raw(`CREATE INDEX events_undispatched ON events (created_at) WHERE dispatched_at IS NULL`);
  await knex.raw(`DROP INDEX IF EXISTS webhook_deliveries_unsent`);
}
