import type { Knex } from 'knex';

// Ordered delivery (docs/adr/0072-ordering-keys.md): a subscription with ordering 'key' gets the deliveries of
// one ordering key (a contact, a conversation, an inbox) one at a time, in commit order.
//
// - webhook_deliveries.ordering_key: set on the deliveries of an ordered subscription (null: unordered), and
//   ordering_seq, their order within the key, taken from one sequence while the key's row is locked, so it
//   follows commit order. Both nullable without a default: a catalog change on the partitioned parent.
// - webhook_ordering_keys: one row per key with a delivery in flight, naming that delivery (its head); the row's
//   lock serialises the producers and the hand-off of one key. A key with nothing pending has no row.
// - webhook_deliveries_queued: the next delivery of a key (lowest ordering_seq among pending), for the hand-off.
// - sb_hand_off_ordering_keys: the hand-off (src/delivery/sql/ordering-keys.ts says what it does), a
//   function so that it takes one round trip, yet reads in a statement after its lock: in a volatile function each
//   statement takes a new snapshot, so it sees every producer that committed while the lock was awaited.

// p_wait: lock every key, waiting (one key, or keys in one order; a missing row is inserted with no head).
// Otherwise: lock the rows that are free, without waiting, and answer the others as skipped (a producer holds
// one until it commits; the caller hands those off one by one, waiting). Then per locked key: a head still pending
// keeps the key; otherwise the next pending delivery by ordering_seq becomes the head, due now under a new job,
// answered to be armed; none left: the row goes. A subscription no longer active stops its key's whole queue.
const HAND_OFF_FUNCTION = `
CREATE FUNCTION sb_hand_off_ordering_keys(p_webhook_ids text[], p_keys text[], p_wait boolean)
RETURNS TABLE (skipped boolean, webhook_id text, ordering_key text, id uuid, created_at timestamptz,
               job_seq integer, event text)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
DECLARE
  l_webhook_ids text[];
  l_keys text[];
BEGIN
  IF p_wait THEN
    INSERT INTO webhook_ordering_keys AS k (webhook_id, ordering_key)
    SELECT x.w, x.k FROM unnest(p_webhook_ids, p_keys) AS x(w, k) ORDER BY 1, 2
    ON CONFLICT (webhook_id, ordering_key) DO UPDATE SET head_id = k.head_id WHERE false;
    l_webhook_ids := p_webhook_ids;
    l_keys := p_keys;
  ELSE
    WITH l AS (
      SELECT k.webhook_id, k.ordering_key FROM webhook_ordering_keys k
        JOIN unnest(p_webhook_ids, p_keys) AS x(w, k) ON k.webhook_id = x.w AND k.ordering_key = x.k
       ORDER BY 1, 2 FOR UPDATE OF k SKIP LOCKED
    )
    SELECT coalesce(array_agg(l.webhook_id), '{}'), coalesce(array_agg(l.ordering_key), '{}')
      INTO l_webhook_ids, l_keys FROM l;
    RETURN QUERY
      SELECT true, x.w, x.k, NULL::uuid, NULL::timestamptz, NULL::integer, NULL::text
        FROM unnest(p_webhook_ids, p_keys) AS x(w, k)
       WHERE NOT EXISTS (SELECT 1 FROM unnest(l_webhook_ids, l_keys) AS y(w, k) WHERE y.w = x.w AND y.k = x.k);
  END IF;
  RETURN QUERY
  WITH x AS (
    SELECT * FROM unnest(l_webhook_ids, l_keys) AS x(w, k)
  ), free AS (
    SELECT x.w, x.k, (wh.status <> 'active' OR wh.deleted_at IS NOT NULL) AS inactive
      FROM x JOIN webhooks wh ON wh.id = x.w
     WHERE NOT EXISTS (
       SELECT 1 FROM webhook_ordering_keys k JOIN webhook_deliveries d ON d.id = k.head_id AND d.created_at = k.head_created_at
        WHERE k.webhook_id = x.w AND k.ordering_key = x.k AND d.status = 'pending')
  ), stopped AS (
    UPDATE webhook_deliveries wd SET status = 'failed', next_attempt_at = NULL, completed_at = now(), updated_at = now()
      FROM free f
     WHERE f.inactive AND wd.webhook_id = f.w AND wd.ordering_key = f.k AND wd.status = 'pending'
  ), next AS (
    SELECT n.id, n.created_at FROM free f CROSS JOIN LATERAL (
      SELECT d.id, d.created_at FROM webhook_deliveries d
       WHERE d.webhook_id = f.w AND d.ordering_key = f.k AND d.status = 'pending'
       ORDER BY d.ordering_seq LIMIT 1) n
     WHERE NOT f.inactive
  ), armed AS (
    UPDATE webhook_deliveries wd SET next_attempt_at = now(), job_seq = wd.job_seq + 1, updated_at = now()
      FROM next WHERE wd.id = next.id AND wd.created_at = next.created_at AND wd.status = 'pending'
    RETURNING wd.id, wd.created_at, wd.job_seq, wd.event, wd.webhook_id, wd.ordering_key
  ), headed AS (
    UPDATE webhook_ordering_keys k SET head_id = a.id, head_created_at = a.created_at, updated_at = now()
      FROM armed a WHERE k.webhook_id = a.webhook_id AND k.ordering_key = a.ordering_key
  ), idle AS (
    DELETE FROM webhook_ordering_keys k USING free f
     WHERE k.webhook_id = f.w AND k.ordering_key = f.k
       AND NOT EXISTS (SELECT 1 FROM armed a WHERE a.webhook_id = f.w AND a.ordering_key = f.k)
  )
  SELECT false, a.webhook_id, a.ordering_key, a.id, a.created_at, a.job_seq, a.event FROM armed a;
END
$fn$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE webhooks ADD COLUMN ordering text NOT NULL DEFAULT 'none'
    CONSTRAINT webhooks_ordering CHECK (ordering IN ('none', 'key'))`);
  await knex.raw(`ALTER TABLE webhook_deliveries ADD COLUMN ordering_key text, ADD COLUMN ordering_seq bigint`);
  await knex.raw(`CREATE SEQUENCE webhook_delivery_order AS bigint`);
  await knex.raw(`CREATE TABLE webhook_ordering_keys (
    webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    ordering_key text NOT NULL,
    head_id uuid,
    head_created_at timestamptz(3),
    updated_at timestamptz(3) NOT NULL DEFAULT now(),
    PRIMARY KEY (webhook_id, ordering_key)
  )`);
  await knex.raw(HAND_OFF_FUNCTION);
  await knex.raw(`CREATE INDEX webhook_deliveries_queued ON webhook_deliveries (webhook_id, ordering_key, ordering_seq)
    WHERE status = 'pending' AND ordering_key IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP FUNCTION sb_hand_off_ordering_keys(text[], text[], boolean)`);
  await knex.raw(`DROP INDEX webhook_deliveries_queued`);
  await knex.raw(`DROP TABLE webhook_ordering_keys`);
  await knex.raw(`DROP SEQUENCE webhook_delivery_order`);
  await knex.raw(`ALTER TABLE webhook_deliveries DROP COLUMN ordering_key, DROP COLUMN ordering_seq`);
  await knex.raw(`ALTER TABLE webhooks DROP COLUMN ordering`);
}
