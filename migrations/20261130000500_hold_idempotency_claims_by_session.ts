import type { Knex } from 'knex';

// An in-flight Idempotency-Key claim names the runtime that holds it (src/idempotency/claim-holder.ts) instead of
// a time it lapses at: a request that runs long keeps its key, and a dead process's claim is free at once.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE idempotency_keys DROP COLUMN locked_until, ADD COLUMN holder integer`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE idempotency_keys DROP COLUMN holder, ADD COLUMN locked_until timestamptz(3)`);
}
