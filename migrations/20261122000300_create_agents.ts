import type { Knex } from 'knex';
import { createdAt, updatedAt } from '../src/platform/schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('agents', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('status').notNullable().defaultTo('active');
    t.jsonb('config').notNullable().defaultTo('{}');
    createdAt(knex, t);
    updatedAt(knex, t);
    t.index(['account_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE agents ADD CONSTRAINT agents_status CHECK (status IN ('active', 'paused'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('agents');
}
