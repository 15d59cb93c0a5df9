import type { Knex } from 'knex';

// What an attempt sent and what the receiver answered in its headers (docs/adr/0068-attempt-headers.md). Added on
// the partitioned parent, so every partition, existing and future, gets them; nullable without a default, so the
// change is a catalog update that rewrites nothing, and rows written before it read as null.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhook_attempts ADD COLUMN request_headers jsonb, ADD COLUMN response_headers jsonb`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhook_attempts DROP COLUMN request_headers, DROP COLUMN response_headers`);
}
