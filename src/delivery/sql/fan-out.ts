import type { FannedOutEvent } from '../../events/emit.js';
import type { NewEvent } from '../../events/events.repository.js';
import { orderingKeyOf } from '../../events/event-types.js';
import { prepare, runPrepared, type Conn } from '../../platform/db.js';
import { newId, uuidV7Range } from '../../platform/ids.js';
import type { Trx } from '../../platform/transaction.js';
import { isPulledKindSql } from '../kinds/registry.js';
import { SCHEDULED, type ScheduledDelivery } from './rows.js';

// ---- fan-out: the event and its deliveries, in the emitting transaction ----

/**
 * Which active subscriptions of the event's account get a delivery of it (alias w, the event e, its payload $6): of
 * its type, and matched by the subscription's filter when it has one, a test whose cost a subscription without a
 * filter never pays (docs/adr/0087-subscription-filters.md). A webhook.test event ($7) ignores filters. An MCP
 * subscription past its TTL gets nothing (docs/mcp-events.md#ttl).
 */
const WANTS_EVENT = `w.status = 'active' AND w.deleted_at IS NULL AND (w.expires_at IS NULL OR w.expires_at > now())
        AND CASE WHEN $7::text IS NULL
                 THEN e.type = ANY (w.events) AND (w.filter_plan IS NULL OR sb_filter_matches(w.filter_plan, $6::jsonb))
                 ELSE w.id = $8 END
        AND w.id IS DISTINCT FROM $9::text`;

/**
 * The event row (e) and an unordered delivery for each subscription that wants it (d). `onlyUnordered` narrows d
 * to the unordered subscriptions, when the ordered ones get their deliveries in the event's key.
 */
const eventAndDeliveries = (onlyUnordered: boolean) => `e AS (
     INSERT INTO events (id, account_id, type, inbox_id, message_id, payload)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb)
     RETURNING id, account_id, type, created_at
   ), d AS (
     -- A delivery lives in its event's partition and its id carries that time (see the header). One for a pulled
     -- kind (a poll) has no due time: it waits for its consumer, and no job is made for it; its ordering_seq is
     -- the order it was written in, which its consumer's log follows.
     INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, event, created_at, updated_at,
                                     next_attempt_at, ordering_seq)
     SELECT sb_uuid_v7(e.created_at), e.account_id, w.id, e.id, e.type, e.created_at, e.created_at,
            CASE WHEN ${isPulledKindSql('w')} THEN NULL ELSE e.created_at END,
            CASE WHEN ${isPulledKindSql('w')} THEN nextval('webhook_delivery_order') END
       FROM e JOIN webhooks w ON w.account_id = e.account_id
      WHERE ${WANTS_EVENT}${onlyUnordered ? ` AND w.ordering = 'none'` : ''}
     RETURNING id, webhook_id, next_attempt_at IS NULL AS waits
   )`;

/** What a fan-out insert answers; only the keyed statement has ordered deliveries to name. */
interface FannedOutRow {
  event_id: string;
  delivery_ids: string[];
  webhook_ids: string[];
  /** Of delivery_ids, those in the event's key… */
  ordered_ids?: string[];
  /** The deliveries not due at commit: ordered ones queued behind their key's head, and those a consumer pulls. */
  queued_ids: string[];
}

/**
 * An event without an ordering key: every subscription that wants it gets an unordered delivery, an ordered one
 * too (it is sent alone). Most events; their statement leaves out the keyed one's branches, which Postgres would
 * otherwise set up and tear down on every event
 * (docs/performance.md#delivery-pipeline-cost-per-event).
 */
const INSERT_EVENT_WITH_DELIVERIES = prepare<FannedOutRow>(
  'insert_event_with_deliveries',
  `WITH ${eventAndDeliveries(false)}, agg AS (
     -- One scan of d for both arrays keeps them in the same order.
     SELECT array_agg(id) AS ids, array_agg(webhook_id) AS webhook_ids,
            array_agg(id) FILTER (WHERE waits) AS waiting_ids FROM d
   )
   SELECT (SELECT id FROM e) AS event_id, coalesce(agg.ids, '{}') AS delivery_ids,
          coalesce(agg.webhook_ids, '{}') AS webhook_ids, coalesce(agg.waiting_ids, '{}') AS queued_ids
     FROM agg`,
);

/** An event with an ordering key ($10): the ordered subscriptions' deliveries join the key's queue. */
const INSERT_EVENT_WITH_KEYED_DELIVERIES = prepare<FannedOutRow>(
  'insert_event_with_keyed_deliveries',
  `WITH ${eventAndDeliveries(true)}, o AS (
     -- Ordered subscriptions: the delivery's id first, for its key to name.
     SELECT sb_uuid_v7(e.created_at) AS id, e.account_id, w.id AS webhook_id, e.id AS event_id, e.type, e.created_at
       FROM e JOIN webhooks w ON w.account_id = e.account_id
      WHERE w.ordering = 'key' AND ${WANTS_EVENT}
   ), k AS (
     -- The key's row, locked until commit (WHERE false: an existing row is locked, not rewritten). Returned only
     -- when inserted: the key had nothing in flight, so this delivery is its head and is armed.
     INSERT INTO webhook_ordering_keys AS k (webhook_id, ordering_key, head_id, head_created_at)
     SELECT o.webhook_id, $10::text, o.id, o.created_at FROM o
     ON CONFLICT (webhook_id, ordering_key) DO UPDATE SET head_id = k.head_id WHERE false
     RETURNING k.head_id
   ), od AS (
     -- Its order, taken after the lock, follows the commit order of the key's producers. Queued: no due time,
     -- so the sweep leaves it to the advance (advanceOrderingKey).
     INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, event, created_at, updated_at,
                                     ordering_key, ordering_seq, next_attempt_at)
     SELECT o.id, o.account_id, o.webhook_id, o.event_id, o.type, o.created_at, o.created_at,
            $10::text, nextval('webhook_delivery_order'), CASE WHEN k.head_id IS NOT NULL THEN o.created_at END
       FROM o LEFT JOIN k ON k.head_id = o.id
     RETURNING id, webhook_id, next_attempt_at IS NULL AS queued
   ), agg AS (
     -- One scan of d for both arrays keeps them in the same order.
     SELECT array_agg(id) AS ids, array_agg(webhook_id) AS webhook_ids,
            array_agg(id) FILTER (WHERE waits) AS waiting_ids FROM d
   ), oagg AS (
     SELECT array_agg(id) AS ids, array_agg(webhook_id) AS webhook_ids,
            array_agg(id) FILTER (WHERE queued) AS queued_ids FROM od
   )
   SELECT (SELECT id FROM e) AS event_id, coalesce(agg.ids, '{}') || coalesce(oagg.ids, '{}') AS delivery_ids,
          coalesce(agg.webhook_ids, '{}') || coalesce(oagg.webhook_ids, '{}') AS webhook_ids,
          coalesce(oagg.ids, '{}') AS ordered_ids,
          coalesce(agg.waiting_ids, '{}') || coalesce(oagg.queued_ids, '{}') AS queued_ids
     FROM agg, oagg`,
);

/**
 * The event row and one delivery row per active subscription of the account that wants it, in ONE statement, so
 * they commit (or vanish) together; the delivery ids are the envelope ids. `onlyTo` (a `webhook.test` event)
 * names the one active subscription that gets a delivery, whatever it subscribes to; `except` names one that
 * does not (an operational event about that very subscription).
 */
export async function insertEventWithDeliveries(
  trx: Trx,
  accountId: string,
  e: NewEvent,
  onlyTo: string | null = null,
  except: string | null = null,
): Promise<FannedOutEvent> {
  // A webhook.test event has no key: it goes to an ordered subscription unordered, as it is sent alone.
  const key = onlyTo ? null : orderingKeyOf(e.type, e.payload);
  const values = [
    newId('evt'),
    accountId,
    e.type,
    e.inboxId ?? null,
    e.messageId ?? null,
    JSON.stringify(e.payload),
    onlyTo,
    onlyTo,
    except,
  ];
  const [row] =
    key === null
      ? await runPrepared(trx, INSERT_EVENT_WITH_DELIVERIES, values)
      : await runPrepared(trx, INSERT_EVENT_WITH_KEYED_DELIVERIES, [...values, key]);
  const ordered = new Set(row!.ordered_ids);
  return {
    eventId: row!.event_id,
    event: e.type,
    deliveryIds: row!.delivery_ids,
    webhookIds: row!.webhook_ids,
    orderingKeys: row!.delivery_ids.map((id) => (ordered.has(id) ? key : null)),
    queuedIds: row!.queued_ids,
  };
}

const EVENT_CREATED_AT = prepare<{ created_at: Date }>(
  'event_created_at',
  'SELECT created_at FROM events WHERE id = $1 LIMIT 1',
  { seqScan: false },
);

// In one order, so that a fan-out run again groups the deliveries still waiting as it did the first time.
const PENDING_DELIVERIES_OF_EVENT = prepare<ScheduledDelivery & { next_attempt_at: Date | null }>(
  'pending_deliveries_of_event',
  `SELECT ${SCHEDULED.join(', ')}, next_attempt_at FROM webhook_deliveries
    WHERE id BETWEEN $1 AND $2 AND created_at = $3 AND event_id = $4 AND status = 'pending'
    ORDER BY id`,
  { seqScan: false },
);

/**
 * The pending deliveries of one event (the fan-out job of a large event adds their jobs). They share the event's
 * created_at, and their UUIDv7 ids carry that millisecond, so they are one range of the primary key: the
 * millisecond's, which also holds any other event's deliveries of that millisecond. Whether each has a due time
 * is asked of the rows read, not in the WHERE: with it there, the partial index of due deliveries matches too, and
 * a plan may walk all of the day's to find the event's (docs/plans.md#the-attempt-records).
 */
export async function findPendingDeliveriesOfEvent(conn: Conn, eventId: string): Promise<ScheduledDelivery[]> {
  const [event] = await runPrepared(conn, EVENT_CREATED_AT, [eventId]);
  if (!event) return [];
  const [first, last] = uuidV7Range(event.created_at);
  const rows = await runPrepared(conn, PENDING_DELIVERIES_OF_EVENT, [first, last, event.created_at, eventId]);
  // A queued ordered delivery (no due time) is scheduled by its key's advance instead.
  return rows.filter((d) => d.next_attempt_at !== null).map(({ next_attempt_at: _due, ...due }) => due);
}
