import type { Knex } from 'knex';

// A key's spend cap may refill: every day, or every month on a day of the month (UTC). spent_credits counts the
// period that began at spend_period_start; the charge that finds that start older than the current period's sets
// spent_credits back to 0 and takes its share in the same UPDATE (src/keys/keys.repository.ts, addKeySpend).
// The period is computed here, from the database's clock, so every API instance agrees on it.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE api_keys
      ADD COLUMN spend_cap_interval text,
      ADD COLUMN spend_cap_refill_day smallint,
      ADD COLUMN spend_period_start timestamptz(3),
      ADD CONSTRAINT api_keys_cap_interval CHECK (spend_cap_interval IN ('daily', 'monthly')),
      ADD CONSTRAINT api_keys_cap_refill_day CHECK (
        (spend_cap_interval = 'monthly') = (spend_cap_refill_day IS NOT NULL)
        AND (spend_cap_refill_day IS NULL OR spend_cap_refill_day BETWEEN 1 AND 31)
      )
  `);
  // The start of the period that holds \`at\`. A monthly refill on day 31 falls on the last day of shorter months.
  await knex.raw(`
    CREATE FUNCTION spend_period_start(kind text, refill_day smallint, at timestamptz) RETURNS timestamptz
    LANGUAGE sql STABLE AS $$
      WITH t AS (SELECT at AT TIME ZONE 'UTC' AS utc, date_trunc('month', at AT TIME ZONE 'UTC') AS month),
      c AS (
        SELECT utc, month,
          month + (least(refill_day, extract(day FROM month + interval '1 month - 1 day')::int) - 1) * interval '1 day' AS this_month,
          (month - interval '1 month')
            + (least(refill_day, extract(day FROM month - interval '1 day')::int) - 1) * interval '1 day' AS last_month
        FROM t
      )
      SELECT CASE kind
        WHEN 'daily' THEN date_trunc('day', utc) AT TIME ZONE 'UTC'
        WHEN 'monthly' THEN (CASE WHEN utc >= this_month THEN this_month ELSE last_month END) AT TIME ZONE 'UTC'
      END FROM c
    $$
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION spend_period_start(text, smallint, timestamptz)`);
  await knex.raw(`
    ALTER TABLE api_keys
      DROP COLUMN spend_cap_interval, DROP COLUMN spend_cap_refill_day, DROP COLUMN spend_period_start
  `);
}
