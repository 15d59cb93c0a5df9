import type { Knex } from 'knex';
import { createdAt, ts, updatedAt } from '../src/platform/schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('key_type').notNullable();
    t.text('key_prefix').notNullable();
    // A per-agent key dies with its agent; account keys have none.
    t.text('agent_id').references('agents.id').onDelete('CASCADE');
    t.specificType('scopes', 'text[]').notNullable();
    t.text('status').notNullable().defaultTo('active');
    // Lookup is by hash only; the plaintext is never stored.
    t.text('secret_hash').notNullable().unique();
    // The secret replaced by the last rotation, valid until rotation_grace_until.
    t.text('previous_secret_hash').unique();
    ts(t, 'rotation_grace_until');
    ts(t, 'expires_at');
    t.specificType('allowed_ips', 'text[]').notNullable().defaultTo('{}');
    t.bigInteger('spend_cap_credits');
    t.bigInteger('spent_credits').notNullable().defaultTo(0);
    ts(t, 'last_used_at');
    t.text('last_used_ip');
    ts(t, 'expiry_notified_at');
    createdAt(knex, t);
    updatedAt(knex, t);
    t.index(['account_id', 'created_at']);
    t.index(['agent_id']);
  });
  await knex.raw(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_type CHECK (key_type IN ('account', 'agent'))`);
  await knex.raw(
    `ALTER TABLE api_keys ADD CONSTRAINT api_keys_status CHECK (status IN ('active', 'deactivated', 'expired'))`,
  );
  await knex.raw(
    `ALTER TABLE api_keys ADD CONSTRAINT api_keys_agent CHECK ((key_type = 'agent') = (agent_id IS NOT NULL))`,
  );
  await knex.raw(
    `ALTER TABLE api_keys ADD CONSTRAINT api_keys_cap CHECK (spend_cap_credits IS NULL OR spend_cap_credits >= 0)`,
  );
  // The cap is enforced in the charging UPDATE's WHERE; this makes an overspend impossible even by mistake.
  await knex.raw(
    `ALTER TABLE api_keys ADD CONSTRAINT api_keys_within_cap CHECK (spend_cap_credits IS NULL OR spent_credits <= spend_cap_credits)`,
  );
  // The expiry sweep only ever looks at active keys with an expiry or keys with a pending old secret.
  await knex.raw(
    `CREATE INDEX api_keys_active_expiry ON api_keys (expires_at) WHERE status = 'active' AND expires_at IS NOT NULL`,
  );
  await knex.raw(
    `CREATE INDEX api_keys_grace ON api_keys (rotation_grace_until) WHERE previous_secret_hash IS NOT NULL`,
  );

  // One row per credit movement: charges (negative delta) and top-ups (positive). GET /v1/billing sums it.
  await knex.schema.createTable('credit_ledger', (t) => {
    t.bigIncrements('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.bigInteger('delta').notNullable();
    t.text('reason').notNullable();
    // No foreign keys: the ledger outlives deleted keys, agents and messages.
    t.text('key_id');
    t.text('user_id');
    t.text('agent_id');
    t.text('message_id');
    t.text('run_id');
    createdAt(knex, t);
    t.index(['account_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('credit_ledger');
  await knex.schema.dropTable('api_keys');
}
