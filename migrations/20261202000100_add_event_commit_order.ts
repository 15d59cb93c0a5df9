import type { Knex } from 'knex';

// Each event row records the transaction that wrote it (`tx`, xid8), so that the MCP events log can be read in
// commit order: a reader only takes rows whose transaction is older than its snapshot's xmin, all of which have
// committed (or aborted), so a row committed late is never behind a position already returned
// (docs/adr/0091-mcp-events.md). Rows written before this migration have none and are not in that log.
// The index serves the log's read: an account's events after a position, in (tx, id) order.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE events ADD COLUMN tx xid8`);
  await knex.raw(`ALTER TABLE events ALTER COLUMN tx SET DEFAULT pg_current_xact_id()`);
  await knex.raw(`CREATE INDEX events_account_tx ON events (account_id, tx, id)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX events_account_tx`);
  await knex.raw(`ALTER TABLE events DROP COLUMN tx`);
}
