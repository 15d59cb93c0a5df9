import type { Knex } from 'knex';

// Endpoint health without reading attempts (src/webhooks/endpoint-stats.*): the delivery worker adds each
// attempt to its subscription's 5-minute bucket (one upsert per coalesced batch, not per attempt), and to the
// subscription's current health row. A window of 7 days reads at most 2,016 buckets whatever the traffic.
// Buckets are pruned after 8 days by the prune-webhook-stats job.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE webhook_stats (
    webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    account_id text NOT NULL,
    bucket_start timestamptz(3) NOT NULL,
    attempts integer NOT NULL,
    successes integer NOT NULL,
    by_error jsonb NOT NULL DEFAULT '{}',   -- {"timeout": 3, "http_status": 1}
    by_status jsonb NOT NULL DEFAULT '{}',  -- {"2xx": 10, "5xx": 1, "none": 3}
    durations jsonb NOT NULL DEFAULT '{}',  -- log-scale histogram: {"<bucket index>": count}
    PRIMARY KEY (webhook_id, bucket_start)
  )`);
  await knex.raw(`CREATE INDEX webhook_stats_prune ON webhook_stats (bucket_start)`);
  await knex.raw(`CREATE TABLE webhook_health (
    webhook_id text PRIMARY KEY REFERENCES webhooks (id) ON DELETE CASCADE,
    account_id text NOT NULL,
    consecutive_failed_attempts integer NOT NULL DEFAULT 0,
    last_success_at timestamptz(3),
    last_failure_at timestamptz(3)
  )`);
  // Adds two {key: count} objects key by key (the counters and histograms of a bucket).
  await knex.raw(`CREATE FUNCTION webhook_stats_merge(a jsonb, b jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT coalesce(jsonb_object_agg(k, n), '{}'::jsonb)
        FROM (SELECT k, sum(v::bigint) AS n
                FROM (SELECT * FROM jsonb_each_text(a) UNION ALL SELECT * FROM jsonb_each_text(b)) kv (k, v)
               GROUP BY k) sums
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP TABLE webhook_health`);
  await knex.raw(`DROP TABLE webhook_stats`);
  await knex.raw(`DROP FUNCTION webhook_stats_merge(jsonb, jsonb)`);
}
