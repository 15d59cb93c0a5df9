import type { Knex } from 'knex';

// Each authenticated request's key outcome, counted per key per hour. The API counts in memory and adds its counts
// in one upsert per flush (src/keys/key-usage.ts), so no request writes a row. No foreign key: a flush that races a
// key's deletion must not fail the other keys' counts; the maintenance job drops rows past retention.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE api_key_usage (
      key_id text NOT NULL,
      hour timestamptz(0) NOT NULL,
      outcome text NOT NULL,
      account_id text NOT NULL,
      n bigint NOT NULL,
      PRIMARY KEY (key_id, hour, outcome)
    )
  `);
  await knex.raw(`CREATE INDEX api_key_usage_prune ON api_key_usage (hour)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP TABLE api_key_usage`);
}
