import type { Knex } from 'knex';
import { createdAt, ts, updatedAt } from '../src/platform/schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('plan').notNullable().defaultTo('free');
    t.bigInteger('credits_balance').notNullable().defaultTo(0);
    t.text('agent_key_minting').notNullable().defaultTo('admins');
    createdAt(knex, t);
    updatedAt(knex, t);
  });
  await knex.raw(`ALTER TABLE accounts ADD CONSTRAINT accounts_credits_nonnegative CHECK (credits_balance >= 0)`);
  await knex.raw(`ALTER TABLE accounts ADD CONSTRAINT accounts_plan CHECK (plan IN ('free', 'pro'))`);
  await knex.raw(
    `ALTER TABLE accounts ADD CONSTRAINT accounts_minting CHECK (agent_key_minting IN ('admins', 'account_keys'))`,
  );

  await knex.schema.createTable('users', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('password_hash').notNullable();
    t.text('role').notNullable();
    createdAt(knex, t);
    t.index(['account_id', 'created_at']);
  });
  await knex.raw(`CREATE UNIQUE INDEX users_email_unique ON users (lower(email))`);
  await knex.raw(`ALTER TABLE users ADD CONSTRAINT users_role CHECK (role IN ('owner', 'admin', 'member'))`);

  await knex.schema.createTable('sessions', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    ts(t, 'expires_at').notNullable().index();
    createdAt(knex, t);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sessions');
  await knex.schema.dropTable('users');
  await knex.schema.dropTable('accounts');
}
