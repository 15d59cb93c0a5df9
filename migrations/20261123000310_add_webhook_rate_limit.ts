import type { Knex } from 'knex';

// Per-subscription throttling (src/delivery/throttle.ts): at most this many deliveries per second to the
// subscription's URL, across every worker process. NULL: unthrottled.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks ADD COLUMN rate_limit_per_second integer
    CONSTRAINT webhooks_rate_limit_per_second CHECK (rate_limit_per_second BETWEEN 1 AND 1000)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks DROP COLUMN rate_limit_per_second`);
}
