import type { Knex } from 'knex';

// Polling endpoints (docs/adr/0089-poll-destinations.md): a subscription of kind 'poll' has no URL; its consumer
// takes its deliveries with GET /v1/webhooks/:id/poll.
//
// - webhooks.kind: every destination kind, poll among them.
// - webhooks.poll_credential_hash: the SHA-256 of the subscription's own poll credential (whpoll_…), unique, null
//   when none is issued; webhooks.poll_head: the last position given in the subscription's log;
//   webhooks.poll_cursor: the position its consumer committed (null: none yet).
// - webhook_deliveries.poll_position: the delivery's place in its subscription's log, given when a poll first
//   returns it. Nullable without a default: a catalog change on the partitioned parent.
// - webhook_deliveries_polled: a subscription's log in position order, for the reads after a cursor;
//   webhook_deliveries_awaiting_consumer: the deliveries still waiting for their consumer (pending, no due time,
//   not queued behind an ordering key) in the order they were written (ordering_seq, which the fan-out takes for
//   them), for the poll that appends them. Both partial, so they hold
//   only rows of poll subscriptions. Built on every day partition: on an installation with a large deliveries
//   table, run this in a quiet hour (the indexes scan each partition once).

const ALL_KINDS = `('http', 'stream', 'rabbitmq', 'nats', 'poll')`;
const KINDS_BEFORE = `('http', 'stream', 'rabbitmq', 'nats')`;

async function replaceKindCheck(knex: Knex, kinds: string): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks DROP CONSTRAINT webhooks_kind`);
  await knex.raw(`ALTER TABLE webhooks ADD CONSTRAINT webhooks_kind CHECK (kind IN ${kinds})`);
}

export async function up(knex: Knex): Promise<void> {
  await replaceKindCheck(knex, ALL_KINDS);
  await knex.raw(`ALTER TABLE webhooks ADD COLUMN poll_credential_hash text,
    ADD COLUMN poll_head bigint NOT NULL DEFAULT 0,
    ADD COLUMN poll_cursor bigint`);
  await knex.raw(
    `CREATE UNIQUE INDEX webhooks_poll_credential ON webhooks (poll_credential_hash) WHERE poll_credential_hash IS NOT NULL`,
  );
  await knex.raw(`ALTER TABLE webhook_deliveries ADD COLUMN poll_position bigint`);
  await knex.raw(`CREATE INDEX webhook_deliveries_polled ON webhook_deliveries (webhook_id, poll_position)
    WHERE poll_position IS NOT NULL`);
  await knex.raw(`CREATE INDEX webhook_deliveries_awaiting_consumer ON webhook_deliveries (webhook_id, ordering_seq)
    WHERE status = 'pending' AND next_attempt_at IS NULL AND ordering_key IS NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX webhook_deliveries_awaiting_consumer`);
  await knex.raw(`DROP INDEX webhook_deliveries_polled`);
  await knex.raw(`ALTER TABLE webhook_deliveries DROP COLUMN poll_position`);
  await knex.raw(`DROP INDEX webhooks_poll_credential`);
  await knex.raw(
    `ALTER TABLE webhooks DROP COLUMN poll_credential_hash, DROP COLUMN poll_head, DROP COLUMN poll_cursor`,
  );
  // A poll subscription cannot outlive its kind (its deliveries go with it, ON DELETE CASCADE).
  await knex.raw(`DELETE FROM webhooks WHERE kind = 'poll'`);
  await replaceKindCheck(knex, KINDS_BEFORE);
}
