import type { Knex } from 'knex';
import { createdAt, ts } from '../src/platform/schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  // Everything the OAuth authorization server (oidc-provider) keeps: clients, sessions, interactions, codes,
  // tokens and grants. Ids are stored as SHA-256 only (an access or refresh token's id is the token itself) and
  // payloads are sealed with a key derived from APP_SECRET, so a database dump holds no usable credential.
  await knex.schema.createTable('oauth_store', (t) => {
    t.text('model').notNullable();
    t.text('id_hash').notNullable();
    t.text('payload').notNullable();
    t.text('grant_id_hash');
    t.text('uid_hash');
    ts(t, 'expires_at');
    ts(t, 'consumed_at');
    createdAt(knex, t);
    t.primary(['model', 'id_hash']);
    t.index(['grant_id_hash']);
    t.index(['uid_hash']);
    t.index(['expires_at']);
  });

  // Switchboard's view of a grant: who granted which client what, on which resource. The account's admins list
  // and revoke these; an access token is accepted only while its grant's row exists.
  await knex.schema.createTable('oauth_grants', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('grant_id_hash').notNullable().unique();
    t.text('client_id').notNullable();
    t.text('client_name');
    t.text('resource').notNullable();
    t.text('agent_id').references('agents.id').onDelete('CASCADE');
    t.specificType('scopes', 'text[]').notNullable();
    ts(t, 'expires_at').notNullable();
    ts(t, 'last_used_at');
    createdAt(knex, t);
    t.index(['account_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oauth_grants');
  await knex.schema.dropTable('oauth_store');
}
