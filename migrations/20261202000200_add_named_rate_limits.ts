import type { Knex } from 'knex';

// Named rate limits ({name, limit, durationMs}): a key's own, and an agent's, shared by all its per-agent keys.
// The counters live in Redis (src/keys/named-limits.ts); the rows only say which limits apply.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE api_keys ADD COLUMN rate_limits jsonb NOT NULL DEFAULT '[]'`);
  await knex.raw(`ALTER TABLE agents ADD COLUMN key_rate_limits jsonb NOT NULL DEFAULT '[]'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE agents DROP COLUMN key_rate_limits`);
  await knex.raw(`ALTER TABLE api_keys DROP COLUMN rate_limits`);
}
