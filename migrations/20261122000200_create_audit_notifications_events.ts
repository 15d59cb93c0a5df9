import type { Knex } from 'knex';
import { createdAt, ts } from '../src/platform/schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_log', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('actor_type').notNullable(); // user | key | system
    t.text('actor_id');
    t.text('action').notNullable(); // e.g. api_key.created
    t.text('target_type');
    t.text('target_id');
    t.text('ip');
    t.jsonb('details').notNullable().defaultTo('{}');
    createdAt(knex, t);
    t.index(['account_id', 'created_at']);
  });

  await knex.schema.createTable('notifications', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('title').notNullable();
    t.text('body').notNullable();
    t.jsonb('data').notNullable().defaultTo('{}');
    // Makes notifications idempotent: one per (account, dedupe_key).
    t.text('dedupe_key');
    createdAt(knex, t);
    t.index(['account_id', 'created_at']);
    t.unique(['account_id', 'dedupe_key']);
  });

  // The outbox: every domain event is written here in the same transaction as the change that causes it.
  await knex.schema.createTable('events', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.text('inbox_id');
    t.text('message_id');
    t.jsonb('payload').notNullable();
    createdAt(knex, t);
    // Set once the fan-out job has been enqueued; the relay sweep picks up rows where it is still null.
    ts(t, 'dispatched_at');
    t.index(['account_id', 'created_at']);
  });
  await knex.raw(`CREATE INDEX events_undispatched ON events (created_at) WHERE dispatched_at IS NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('events');
  await knex.schema.dropTable('notifications');
  await knex.schema.dropTable('audit_log');
}
