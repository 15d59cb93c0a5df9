import type { Knex } from 'knex';
import { createdAt, ts, updatedAt } from '../src/platform/schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('domains', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('dkim_selector').notNullable();
    // Base64 DER (SubjectPublicKeyInfo): exactly what goes after p= in the DKIM record.
    t.text('dkim_public_key').notNullable();
    // AES-256-GCM sealed PEM; never leaves the service through the API.
    t.text('dkim_private_key_sealed').notNullable();
    // The last verification result per record, keyed by purpose (spf, dkim, dmarc).
    t.jsonb('checks').notNullable().defaultTo('{}');
    ts(t, 'last_checked_at');
    ts(t, 'verified_at');
    createdAt(knex, t);
    updatedAt(knex, t);
    t.unique(['account_id', 'name'], { indexName: 'domains_account_name_unique' });
    t.index(['account_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE domains ADD CONSTRAINT domains_status CHECK (status IN ('pending', 'verified'))`);

  await knex.schema.createTable('integrations', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    // Non-secret settings only (host, port, url, from, header names...).
    t.jsonb('settings').notNullable().defaultTo('{}');
    // Secret settings (passwords, header values) as one sealed JSON object.
    t.text('secrets_sealed').notNullable();
    ts(t, 'connected_at').notNullable().defaultTo(knex.raw('now()'));
    createdAt(knex, t);
    updatedAt(knex, t);
    t.unique(['account_id', 'provider'], { indexName: 'integrations_account_provider_unique' });
  });
  await knex.raw(
    `ALTER TABLE integrations ADD CONSTRAINT integrations_provider CHECK (provider IN ('smtp', 'sms-http'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('integrations');
  await knex.schema.dropTable('domains');
}
