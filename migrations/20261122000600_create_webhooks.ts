import type { Knex } from 'knex';
import { createdAt, ts, updatedAt } from '../src/platform/schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.text('description');
    t.text('status').notNullable().defaultTo('active');
    // Secrets are AES-256-GCM sealed with a key derived from APP_SECRET; never stored or logged in clear.
    t.text('secret_sealed').notNullable();
    t.text('previous_secret_sealed');
    ts(t, 'previous_secret_expires_at');
    t.text('legacy_secret_sealed');
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    ts(t, 'disabled_at');
    t.text('disabled_reason');
    ts(t, 'deleted_at');
    createdAt(knex, t);
    updatedAt(knex, t);
  });
  await knex.raw(`ALTER TABLE webhooks ADD CONSTRAINT webhooks_status CHECK (status IN ('active', 'disabled'))`);
  await knex.raw(
    `CREATE INDEX webhooks_account_page ON webhooks (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  );

  // One delivery per (event, subscription); its id is the envelope id receivers dedupe on.
  // account_id here and webhook_id/account_id on attempts are deliberately not foreign keys: every insert would
  // take a KEY SHARE lock on the same hot parent row (one webhook, one account) from many concurrent workers,
  // which turns into MultiXact contention. Deletion still cascades: accounts → webhooks → deliveries → attempts.
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary();
    t.text('account_id').notNullable();
    t.text('webhook_id').notNullable().references('webhooks.id').onDelete('CASCADE');
    t.text('event_id').notNullable().references('events.id').onDelete('CASCADE');
    t.text('event').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.integer('last_response_status');
    ts(t, 'completed_at');
    createdAt(knex, t);
    updatedAt(knex, t);
    t.unique(['event_id', 'webhook_id']);
  });
  await knex.raw(
    `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status CHECK (status IN ('pending', 'succeeded', 'failed', 'exhausted'))`,
  );
  await knex.raw(`CREATE INDEX webhook_deliveries_page ON webhook_deliveries (webhook_id, created_at DESC, id DESC)`);
  // recoverSince: the failed/exhausted deliveries of one subscription since a time.
  await knex.raw(
    `CREATE INDEX webhook_deliveries_unfinished ON webhook_deliveries (webhook_id, created_at) WHERE status IN ('failed', 'exhausted')`,
  );

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.text('id').primary();
    t.uuid('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    t.text('webhook_id').notNullable();
    t.text('account_id').notNullable();
    t.text('event').notNullable();
    t.integer('attempt_number').notNullable();
    t.text('status').notNullable();
    t.text('url').notNullable();
    t.integer('response_status');
    t.text('response_body');
    t.text('error');
    t.text('error_message');
    t.integer('duration_ms').notNullable();
    ts(t, 'next_attempt_at');
    createdAt(knex, t);
  });
  await knex.raw(
    `ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_status CHECK (status IN ('succeeded', 'failed'))`,
  );
  await knex.raw(`CREATE INDEX webhook_attempts_page ON webhook_attempts (webhook_id, created_at DESC, id DESC)`);
  await knex.raw(`CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_attempts');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhooks');
}
