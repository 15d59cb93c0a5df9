import type { Knex } from 'knex';

// billing.credits_low is emitted when a charge takes the balance from at or above this threshold to below it
// (src/billing/billing.service.ts). Set with PATCH /v1/account; 0 turns the event off.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE accounts ADD COLUMN low_credits_threshold bigint NOT NULL DEFAULT 100
    CONSTRAINT accounts_low_credits_threshold CHECK (low_credits_threshold >= 0)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE accounts DROP COLUMN low_credits_threshold`);
}
