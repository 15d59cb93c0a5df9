import type { Knex } from 'knex';

// events, webhook_deliveries and webhook_attempts become tables partitioned by day on created_at, so that
// retention drops whole days (DETACH … CONCURRENTLY, then DROP: no lock that blocks deliveries, no bloat, no
// vacuum debt) and every lookup that knows a row's created_at reaches one partition. Delivery ids become UUIDv7
// stamped with the delivery's created_at (its event's, to the millisecond), so a delivery id alone names its
// partition. Ids issued before this migration (v4) stay valid; a lookup by such an id probes every partition.
// Partitions are created PARTITION_DAYS_AHEAD days ahead here and then by the maintain-partitions job.
//
// Rows already present are copied into the new tables (a large installation should run this in a maintenance
// window). Unique (event_id, webhook_id) cannot be enforced across partitions without the partition key; the
// fan-out statement inserts one row per subscription by construction. Foreign keys from deliveries to events
// and from attempts to deliveries go: all three tables lose a day together, and nothing else removes those rows.

const TABLES = ['events', 'webhook_deliveries', 'webhook_attempts'] as const;
const PARTITION_DAYS_AHEAD = 14;
const DAY_MS = 24 * 3600 * 1000;

const dayName = (t: Date) => t.toISOString().slice(0, 10).replaceAll('-', '');
const dayStart = (t: Date) => new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);

async function renameAside(knex: Knex, table: string): Promise<void> {
  await knex.raw(`ALTER TABLE ?? RENAME TO ??`, [table, `${table}_unpartitioned`]);
  const { rows } = await knex.raw<{ rows: Array<{ indexname: string }> }>(
    `SELECT indexname FROM pg_indexes WHERE tablename = ?`,
    [`${table}_unpartitioned`],
  );
  for (const { indexname } of rows)
    await knex.raw(`ALTER INDEX ?? RENAME TO ??`, [indexname, `${indexname}_unpartitioned`]);
}

export async function up(knex: Knex): Promise<void> {
  // A UUIDv7 whose 48-bit millisecond prefix is `at` (RFC 9562): 74 random bits, version 7, variant 10.
  await knex.raw(`
    CREATE FUNCTION sb_uuid_v7(at timestamptz) RETURNS uuid LANGUAGE sql VOLATILE AS $$
      SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
               PLACING substring(int8send(floor(extract(epoch FROM at) * 1000)::bigint) FROM 3)
               FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
    $$`);

  for (const table of TABLES) await renameAside(knex, table);

  await knex.raw(`CREATE TABLE events (
    id text NOT NULL,
    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    type text NOT NULL,
    inbox_id text,
    message_id text,
    payload jsonb NOT NULL,
    created_at timestamptz(3) NOT NULL DEFAULT now(),
    PRIMARY KEY (id, created_at)
  ) PARTITION BY RANGE (created_at)`);
  await knex.raw(`CREATE INDEX events_account_page ON events (account_id, created_at DESC, id DESC)`);

  await knex.raw(`CREATE TABLE webhook_deliveries (
    id uuid NOT NULL,
    account_id text NOT NULL,
    webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id text NOT NULL,
    event text NOT NULL,
    status text NOT NULL DEFAULT 'pending' CONSTRAINT webhook_deliveries_status CHECK (status IN ('pending', 'succeeded', 'failed', 'exhausted')),
    attempts integer NOT NULL DEFAULT 0,
    round_attempts integer NOT NULL DEFAULT 0,
    job_seq integer NOT NULL DEFAULT 1,
    next_attempt_at timestamptz(3) DEFAULT now(),
    last_error text,
    last_response_status integer,
    completed_at timestamptz(3),
    created_at timestamptz(3) NOT NULL DEFAULT now(),
    updated_at timestamptz(3) NOT NULL DEFAULT now(),
    PRIMARY KEY (id, created_at)
  ) PARTITION BY RANGE (created_at)`);
  await knex.raw(`CREATE INDEX webhook_deliveries_page ON webhook_deliveries (webhook_id, created_at DESC, id DESC)`);
  await knex.raw(
    `CREATE INDEX webhook_deliveries_unfinished ON webhook_deliveries (webhook_id, created_at) WHERE status IN ('failed', 'exhausted')`,
  );
  await knex.raw(
    `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending'`,
  );
  await knex.raw(`CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)`);

  await knex.raw(`CREATE TABLE webhook_attempts (
    id text NOT NULL,
    delivery_id uuid NOT NULL,
    webhook_id text NOT NULL,
    account_id text NOT NULL,
    event text NOT NULL,
    attempt_number integer NOT NULL,
    status text NOT NULL CONSTRAINT webhook_attempts_status CHECK (status IN ('succeeded', 'failed')),
    url text NOT NULL,
    response_status integer,
    response_body text,
    error text,
    error_message text,
    duration_ms integer NOT NULL,
    next_attempt_at timestamptz(3),
    created_at timestamptz(3) NOT NULL DEFAULT now(),
    PRIMARY KEY (id, created_at)
  ) PARTITION BY RANGE (created_at)`);
  await knex.raw(`CREATE INDEX webhook_attempts_page ON webhook_attempts (webhook_id, created_at DESC, id DESC)`);
  await knex.raw(`CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id)`);

  const { rows } = await knex.raw<{ rows: Array<{ oldest: Date | null }> }>(`SELECT least(
      (SELECT min(created_at) FROM events_unpartitioned),
      (SELECT min(created_at) FROM webhook_deliveries_unpartitioned),
      (SELECT min(created_at) FROM webhook_attempts_unpartitioned)) AS oldest`);
  const today = dayStart(new Date());
  const first = dayStart(rows[0]?.oldest ?? today);
  for (
    let day = first;
    day.getTime() <= today.getTime() + PARTITION_DAYS_AHEAD * DAY_MS;
    day = new Date(day.getTime() + DAY_MS)
  ) {
    const next = new Date(day.getTime() + DAY_MS);
    for (const table of TABLES) {
      // DDL takes no bind parameters; the bounds are ISO strings made here.
      await knex.raw(
        `CREATE TABLE ?? PARTITION OF ?? FOR VALUES FROM ('${day.toISOString()}') TO ('${next.toISOString()}')`,
        [`${table}_d${dayName(day)}`, table],
      );
    }
  }

  await knex.raw(`INSERT INTO events (id, account_id, type, inbox_id, message_id, payload, created_at)
    SELECT id, account_id, type, inbox_id, message_id, payload, created_at FROM events_unpartitioned`);
  await knex.raw(`INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, event, status, attempts, round_attempts, job_seq,
      next_attempt_at, last_error, last_response_status, completed_at, created_at, updated_at)
    SELECT id, account_id, webhook_id, event_id, event, status, attempts, round_attempts, job_seq,
      next_attempt_at, last_error, last_response_status, completed_at, created_at, updated_at FROM webhook_deliveries_unpartitioned`);
  await knex.raw(`INSERT INTO webhook_attempts (id, delivery_id, webhook_id, account_id, event, attempt_number, status, url,
      response_status, response_body, error, error_message, duration_ms, next_attempt_at, created_at)
    SELECT id, delivery_id, webhook_id, account_id, event, attempt_number, status, url,
      response_status, response_body, error, error_message, duration_ms, next_attempt_at, created_at FROM webhook_attempts_unpartitioned`);
  await knex.raw(`DROP TABLE webhook_attempts_unpartitioned, webhook_deliveries_unpartitioned, events_unpartitioned`);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw(`CREATE TABLE ?? (LIKE ?? INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`, [`${table}_plain`, table]);
    await knex.raw(`INSERT INTO ?? SELECT * FROM ??`, [`${table}_plain`, table]);
  }
  await knex.raw(`DROP TABLE webhook_attempts, webhook_deliveries, events`);
  for (const table of TABLES) await knex.raw(`ALTER TABLE ?? RENAME TO ??`, [`${table}_plain`, table]);
  await knex.raw(
    `ALTER TABLE events ADD PRIMARY KEY (id), ADD FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE`,
  );
  await knex.raw(`CREATE INDEX events_account_id_created_at_index ON events (account_id, created_at)`);
  await knex.raw(`ALTER TABLE webhook_deliveries ADD PRIMARY KEY (id), ADD UNIQUE (event_id, webhook_id),
    ADD FOREIGN KEY (webhook_id) REFERENCES webhooks (id) ON DELETE CASCADE, ADD FOREIGN KEY (event_id) REFERENCES events (id) ON DELETE CASCADE`);
  await knex.raw(`CREATE INDEX webhook_deliveries_page ON webhook_deliveries (webhook_id, created_at DESC, id DESC)`);
  await knex.raw(
    `CREATE INDEX webhook_deliveries_unfinished ON webhook_deliveries (webhook_id, created_at) WHERE status IN ('failed', 'exhausted')`,
  );
  await knex.raw(
    `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending'`,
  );
  await knex.raw(
    `ALTER TABLE webhook_attempts ADD PRIMARY KEY (id), ADD FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries (id) ON DELETE CASCADE`,
  );
  await knex.raw(`CREATE INDEX webhook_attempts_page ON webhook_attempts (webhook_id, created_at DESC, id DESC)`);
  await knex.raw(`CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id)`);
  await knex.raw(`DROP FUNCTION sb_uuid_v7(timestamptz)`);
}
