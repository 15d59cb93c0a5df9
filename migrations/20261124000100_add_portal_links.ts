import type { Knex } from 'knex';
import { createdAt, ts } from '../src/platform/schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  // A subscription's tenant: the label an account sets to say which of its own customers the endpoint belongs to.
  // A portal link is scoped to one tenant (docs/adr/0063-portal-links.md).
  await knex.schema.alterTable('webhooks', (t) => {
    t.text('tenant');
  });
  await knex.raw(
    'CREATE INDEX webhooks_account_tenant_idx ON webhooks (account_id, tenant) WHERE tenant IS NOT NULL AND deleted_at IS NULL',
  );

  // Links an account hands to its customer: the token is stored as its SHA-256 only.
  await knex.schema.createTable('portal_links', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('tenant').notNullable();
    t.specificType('events', 'text[]');
    t.text('token_hash').notNullable().unique();
    ts(t, 'expires_at').notNullable();
    ts(t, 'revoked_at');
    createdAt(knex, t);
    t.index(['account_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('portal_links');
  await knex.raw('DROP INDEX IF EXISTS webhooks_account_tenant_idx');
  await knex.schema.alterTable('webhooks', (t) => {
    t.dropColumn('tenant');
  });
}
