import type { Knex } from 'knex';

// webhook_deliveries_due holds the deliveries that have a due time: pending and not queued behind an ordering key.
// Its predicate was `status = 'pending'` alone, which every statement guarding a pending delivery also says; so a
// generic plan of an attempt's record could read a batch's deliveries through this index, every pending row of the
// day (and every entry a non-HOT update has left behind until vacuum) to find a few. With the due time in the
// predicate, only a statement that bounds the due time can use it: the relay sweep (docs/plans.md#the-attempt-records).

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX webhook_deliveries_due`);
  await knex.raw(`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id)
    WHERE status = 'pending' AND next_attempt_at IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX webhook_deliveries_due`);
  await knex.raw(
    `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending'`,
  );
}
