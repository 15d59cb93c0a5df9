import type { Knex } from 'knex';

// Idempotency-Key on creating and spending POSTs (src/idempotency/): one row per account and key, the key
// stored only as its SHA-256. `request_hash` fingerprints the credential, method, path and body of the request
// that claimed it; `locked_until` bounds how long an in-flight claim blocks others (a process that died with it).
// Rows live 24 hours and are deleted by the sweep-idempotency-keys job.

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE idempotency_keys (
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    key_hash text NOT NULL,
    request_hash text NOT NULL,
    state text NOT NULL CONSTRAINT idempotency_keys_state CHECK (state IN ('in_flight', 'completed')),
    locked_until timestamptz(3),
    response_status integer,
    response_body jsonb,
    created_at timestamptz(3) NOT NULL DEFAULT now(),
    expires_at timestamptz(3) NOT NULL,
    PRIMARY KEY (account_id, key_hash)
  )`);
  await knex.raw(`CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP TABLE idempotency_keys`);
}
