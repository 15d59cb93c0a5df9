import type { Knex } from 'knex';

// The MCP events log (docs/adr/0091-mcp-events.md): each event row gets `log_seq`, from one sequence, taken by a
// trigger while its transaction holds its account's log lock shared (a transaction-scoped advisory lock, released
// at commit). A reader takes that lock exclusively for an instant: every writer of the account that had taken a
// number has then ended, so every number up to the sequence's last value is committed (or rolled back) for that
// account, and reading up to it never leaves an event behind a position it returns. Rows written before this
// migration have no number and are not in the log. The index serves the read: an account's events after a number.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE SEQUENCE event_log_seq`);
  await knex.raw(`ALTER TABLE events ADD COLUMN log_seq bigint`);
  await knex.raw(`
CREATE FUNCTION sb_event_log_seq() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  -- The lock first, then the number: a reader holding the lock exclusively knows every number taken is settled.
  PERFORM pg_advisory_xact_lock_shared(91, hashtext(NEW.account_id));
  NEW.log_seq := nextval('event_log_seq');
  RETURN NEW;
END
$fn$`);
  await knex.raw(
    `CREATE TRIGGER events_log_seq BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION sb_event_log_seq()`,
  );
  await knex.raw(`CREATE INDEX events_account_log_seq ON events (account_id, log_seq)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX events_account_log_seq`);
  await knex.raw(`DROP TRIGGER events_log_seq ON events`);
  await knex.raw(`DROP FUNCTION sb_event_log_seq()`);
  await knex.raw(`ALTER TABLE events DROP COLUMN log_seq`);
  await knex.raw(`DROP SEQUENCE event_log_seq`);
}
