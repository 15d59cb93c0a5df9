import type { Knex } from 'knex';
import { createdAt, ts, updatedAt } from '../src/platform/schema-helpers.js';

// Contacts, inboxes, conversations, messages, runs and the activity timeline of the agent domain.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contacts', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    // The agent that first conversed with this contact (or was named at creation); conversations link the rest.
    t.text('agent_id').references('agents.id').onDelete('SET NULL');
    t.text('name');
    t.text('email');
    t.text('phone');
    t.jsonb('metadata').notNullable().defaultTo('{}');
    createdAt(knex, t);
    updatedAt(knex, t);
    t.index(['account_id', 'created_at']);
  });
  // Inbound mail links to a contact by address, so an address names at most one contact per account.
  await knex.raw(`CREATE UNIQUE INDEX contacts_account_email ON contacts (account_id, email) WHERE email IS NOT NULL`);
  await knex.raw(`CREATE UNIQUE INDEX contacts_account_phone ON contacts (account_id, phone) WHERE phone IS NOT NULL`);

  await knex.schema.createTable('inboxes', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.text('channel').notNullable();
    t.text('address').notNullable();
    t.text('name');
    // SHA-256 of the ingest token; the token itself is shown once.
    t.text('ingest_token_hash').notNullable().unique();
    createdAt(knex, t);
    updatedAt(knex, t);
    // Soft delete: messages keep pointing at the inbox they came through.
    ts(t, 'deleted_at');
    t.index(['account_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE inboxes ADD CONSTRAINT inboxes_channel CHECK (channel IN ('email', 'sms'))`);

  await knex.schema.createTable('conversations', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.text('channel').notNullable(); // email | sms | chat
    t.text('inbox_id').references('inboxes.id');
    t.text('contact_id').references('contacts.id').onDelete('SET NULL');
    // One conversation per (agent, thread): 'inbox:<id>:contact:<id>' or 'chat'.
    t.text('thread_key').notNullable();
    t.text('subject');
    ts(t, 'last_message_at').notNullable().defaultTo(knex.raw('now()'));
    createdAt(knex, t);
    updatedAt(knex, t);
    t.unique(['account_id', 'agent_id', 'thread_key']);
    t.index(['account_id', 'created_at']);
    t.index(['agent_id', 'created_at']);
  });

  await knex.schema.createTable('runs', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.text('conversation_id').notNullable().references('conversations.id').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('queued');
    t.text('input_message_id');
    t.text('reply_message_id');
    t.text('error');
    t.integer('charged_credits').notNullable().defaultTo(0);
    ts(t, 'started_at');
    ts(t, 'finished_at');
    createdAt(knex, t);
    updatedAt(knex, t);
    t.index(['account_id', 'created_at']);
    t.index(['status', 'created_at']);
  });
  await knex.raw(
    `ALTER TABLE runs ADD CONSTRAINT runs_status CHECK (status IN ('queued', 'running', 'succeeded', 'failed'))`,
  );

  await knex.schema.createTable('messages', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('agent_id').notNullable().references('agents.id').onDelete('CASCADE');
    t.text('conversation_id').notNullable().references('conversations.id').onDelete('CASCADE');
    t.text('inbox_id').references('inboxes.id');
    t.text('contact_id').references('contacts.id').onDelete('SET NULL');
    t.text('run_id').references('runs.id').onDelete('SET NULL');
    t.text('direction').notNullable(); // inbound | outbound
    t.text('channel').notNullable(); // email | sms | chat
    t.text('status').notNullable(); // received | draft | queued | sent | failed
    t.text('from_address');
    t.text('to_address');
    t.text('subject');
    t.text('text').notNullable();
    t.text('error');
    t.integer('charged_credits').notNullable().defaultTo(0);
    ts(t, 'sent_at');
    createdAt(knex, t);
    updatedAt(knex, t);
    t.index(['account_id', 'created_at']);
    t.index(['conversation_id', 'created_at']);
    t.index(['account_id', 'status', 'created_at']);
  });
  await knex.raw(
    `ALTER TABLE messages ADD CONSTRAINT messages_status CHECK (status IN ('received', 'draft', 'queued', 'sent', 'failed'))`,
  );
  await knex.raw(`ALTER TABLE messages ADD CONSTRAINT messages_direction CHECK (direction IN ('inbound', 'outbound'))`);

  // A readable timeline per agent, written in the same transaction as the change it describes.
  await knex.schema.createTable('activity', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('agent_id').references('agents.id').onDelete('CASCADE');
    t.text('kind').notNullable(); // e.g. message.received, run.succeeded
    t.text('subject_type').notNullable();
    t.text('subject_id').notNullable();
    t.text('summary').notNullable();
    t.jsonb('data').notNullable().defaultTo('{}');
    createdAt(knex, t);
    t.index(['account_id', 'created_at']);
    t.index(['agent_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('activity');
  await knex.schema.dropTable('messages');
  await knex.schema.dropTable('runs');
  await knex.schema.dropTable('conversations');
  await knex.schema.dropTable('inboxes');
  await knex.schema.dropTable('contacts');
}
