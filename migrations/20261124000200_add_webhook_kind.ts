import type { Knex } from 'knex';

// Stream destinations (docs/adr/0054-stream-destinations.md): a subscription whose deliveries go down a connection
// a `switchboard listen` session holds open, instead of a POST to its URL. It lives while its session is connected;
// the partial index serves the per-account count of open streams.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks ADD COLUMN kind text NOT NULL DEFAULT 'http'
    CONSTRAINT webhooks_kind CHECK (kind IN ('http', 'stream'))`);
  await knex.raw(
    `CREATE INDEX webhooks_open_streams ON webhooks (account_id) WHERE kind = 'stream' AND deleted_at IS NULL`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX webhooks_open_streams`);
  await knex.raw(`ALTER TABLE webhooks DROP COLUMN kind`);
}
