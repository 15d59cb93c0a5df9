import type { Knex } from 'knex';

// The delivery row is the authority on a delivery's schedule (src/webhooks/deliveries.repository.ts):
//   next_attempt_at  when a pending delivery is due (null once final);
//   job_seq          the number of the one job allowed to make the next attempt; a job carrying an older number
//                    is stale and does nothing, so re-arming a delivery never lets two jobs send it;
//   round_attempts   attempts since the delivery was last (re)opened, which the retry schedule counts.
// The relay sweep reads pending deliveries by due time through webhook_deliveries_due; the predicate is a
// literal in the sweep's SQL, so a generic plan can use this partial index too.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhook_deliveries
    ADD COLUMN next_attempt_at timestamptz(3),
    ADD COLUMN job_seq integer NOT NULL DEFAULT 1,
    ADD COLUMN round_attempts integer NOT NULL DEFAULT 0`);
  await knex.raw(`UPDATE webhook_deliveries d
       SET round_attempts = d.attempts,
           next_attempt_at = coalesce((SELECT max(a.next_attempt_at) FROM webhook_attempts a WHERE a.delivery_id = d.id), d.created_at)
     WHERE d.status = 'pending'`);
  await knex.raw(`ALTER TABLE webhook_deliveries ALTER COLUMN next_attempt_at SET DEFAULT now()`);
  await knex.raw(
    `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending'`,
  );
  await knex.raw(`DROP INDEX IF EXISTS webhook_deliveries_unsent`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX webhook_deliveries_unsent ON webhook_deliveries (created_at, id) WHERE status = 'pending' AND attempts = 0`,
  );
  await knex.raw(`DROP INDEX IF EXISTS webhook_deliveries_due`);
  await knex.raw(
    `ALTER TABLE webhook_deliveries DROP COLUMN next_attempt_at, DROP COLUMN job_seq, DROP COLUMN round_attempts`,
  );
}
