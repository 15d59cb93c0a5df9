import type { Knex } from 'knex';
import type { FannedOutEvent } from '../events/emit.js';
import type { NewEvent } from '../events/events.repository.js';
import { prepare, runPrepared, startupBound, type Conn, type Prepared } from '../platform/db.js';
import { newId, uuidV7Range, uuidV7Time } from '../platform/ids.js';
import { orderingKeyOf } from '../events/event-types.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import type { Trx } from '../platform/transaction.js';

// Every statement on webhook_deliveries and webhook_attempts. A delivery is a small state machine whose row is
// the authority (docs/webhooks.md#the-delivery-state-machine has the table):
//
//   pending ──success──▶ succeeded        pending ──retry scheduled──▶ pending (job_seq + 1, due later)
//   pending ──last retry failed──▶ exhausted    pending ──410 / subscription stopped──▶ failed
//   succeeded | failed | exhausted ──reopen (redeliver, recoverSince)──▶ pending (job_seq + 1, due now)
//
// Each transition is one function whose WHERE names the state it leaves and the job_seq of the job that may
// make it, so a late or duplicated job can never move a delivery back. An attempt that arrives for a delivery
// that has moved on is still recorded (it happened) but changes neither the delivery nor the subscription.
//
// The three tables are partitioned by day on created_at. A delivery's created_at is its event's, and its id is
// a UUIDv7 stamped with that same millisecond, so every statement here names (id, created_at) and reaches one
// partition. Reads for the API are bounded by `since`, the retention cutoff: older rows answer as absent.

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'exhausted';

export interface DeliveryRow {
  id: string;
  account_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  round_attempts: number;
  job_seq: number;
  /** Set on the deliveries of an ordered subscription (docs/webhooks.md#ordered-delivery); null: unordered. */
  ordering_key: string | null;
  /** The delivery's place in its key's order (commit order); null when unordered. */
  ordering_seq: string | null;
  next_attempt_at: Date | null;
  last_error: string | null;
  last_response_status: number | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What names one delivery row: its id and the partition key. */
export interface DeliveryRef {
  id: string;
  created_at: Date;
}

/** A delivery and the number of the job that may make its next attempt. */
export interface ArmedDelivery extends DeliveryRef {
  job_seq: number;
  /** What its job's name shows in bull-board (src/webhooks/dispatch.ts). */
  event: string;
  webhook_id: string;
  /** Its ordering key, null when its subscription is unordered (a partition may route by it). */
  ordering_key: string | null;
}

/** The columns of an ArmedDelivery, for the statements that return one. */
const ARMED = ['id', 'created_at', 'job_seq', 'event', 'webhook_id', 'ordering_key'];

/**
 * Narrows a query on webhook_deliveries (alias `d` or none) to one delivery by id: with the UUIDv7's time when
 * it has one, so that one partition is read; ids issued before UUIDv7 (v4) probe every partition.
 */
function whereDelivery(q: Knex.QueryBuilder, id: string, column = 'id'): Knex.QueryBuilder {
  const at = uuidV7Time(id);
  q.where(column, id);
  return at ? q.where(column.replace(/\bid$/, 'created_at'), at) : q;
}

// ---- fan-out: the event and its deliveries, in the emitting transaction ----

/** Which active subscriptions of the event's account get a delivery of it (alias w, the event e). */
const WANTS_EVENT = `w.status = 'active' AND w.deleted_at IS NULL
        AND CASE WHEN $7::text IS NULL THEN e.type = ANY (w.events) ELSE w.id = $8 END
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
     -- A delivery lives in its event's partition and its id carries that time (see the header).
     INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, event, created_at, updated_at)
     SELECT sb_uuid_v7(e.created_at), e.account_id, w.id, e.id, e.type, e.created_at, e.created_at
       FROM e JOIN webhooks w ON w.account_id = e.account_id
      WHERE ${WANTS_EVENT}${onlyUnordered ? ` AND w.ordering = 'none'` : ''}
     RETURNING id, webhook_id
   )`;

/** What a fan-out insert answers; only the keyed statement has ordered deliveries to name. */
interface FannedOutRow {
  event_id: string;
  delivery_ids: string[];
  webhook_ids: string[];
  /** Of delivery_ids, those in the event's key… */
  ordered_ids?: string[];
  /** …and of those, the ones queued behind the key's head. */
  queued_ids?: string[];
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
     SELECT array_agg(id) AS ids, array_agg(webhook_id) AS webhook_ids FROM d
   )
   SELECT (SELECT id FROM e) AS event_id, coalesce(agg.ids, '{}') AS delivery_ids,
          coalesce(agg.webhook_ids, '{}') AS webhook_ids
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
     -- so the relay sweep leaves it to the hand-off (advanceOrderingKey).
     INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, event, created_at, updated_at,
                                     ordering_key, ordering_seq, next_attempt_at)
     SELECT o.id, o.account_id, o.webhook_id, o.event_id, o.type, o.created_at, o.created_at,
            $10::text, nextval('webhook_delivery_order'), CASE WHEN k.head_id IS NOT NULL THEN o.created_at END
       FROM o LEFT JOIN k ON k.head_id = o.id
     RETURNING id, webhook_id, next_attempt_at IS NULL AS queued
   ), agg AS (
     -- One scan of d for both arrays keeps them in the same order.
     SELECT array_agg(id) AS ids, array_agg(webhook_id) AS webhook_ids FROM d
   ), oagg AS (
     SELECT array_agg(id) AS ids, array_agg(webhook_id) AS webhook_ids,
            array_agg(id) FILTER (WHERE queued) AS queued_ids FROM od
   )
   SELECT (SELECT id FROM e) AS event_id, coalesce(agg.ids, '{}') || coalesce(oagg.ids, '{}') AS delivery_ids,
          coalesce(agg.webhook_ids, '{}') || coalesce(oagg.webhook_ids, '{}') AS webhook_ids,
          coalesce(oagg.ids, '{}') AS ordered_ids, coalesce(oagg.queued_ids, '{}') AS queued_ids
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
    queuedIds: row!.queued_ids ?? [],
  };
}

/**
 * The pending deliveries of one event (the fan-out job of a large event adds their jobs). They share the event's
 * created_at, and their UUIDv7 ids carry that millisecond, so they are one range of the primary key: the
 * millisecond's, which also holds any other event's deliveries of that millisecond. Whether each has a due time
 * is asked of the rows read, not in the WHERE: with it there, the partial index of due deliveries matches too, and
 * a plan may walk all of the day's to find the event's (docs/plans.md#the-attempt-records).
 */
export async function findPendingDeliveriesOfEvent(conn: Conn, eventId: string): Promise<ArmedDelivery[]> {
  const event = await conn('events')
    .select<{ created_at: Date } | undefined>('created_at')
    .where({ id: eventId })
    .first();
  if (!event) return [];
  const rows: Array<ArmedDelivery & { next_attempt_at: Date | null }> = await conn('webhook_deliveries')
    .select([...ARMED, 'next_attempt_at'])
    .whereBetween('id', uuidV7Range(event.created_at))
    .where({ created_at: event.created_at, event_id: eventId, status: 'pending' })
    // In one order, so that a fan-out run again groups the deliveries still waiting as it did the first time.
    .orderBy('id');
  // A queued ordered delivery (no due time) is armed by its key's hand-off instead.
  return rows.filter((d) => d.next_attempt_at !== null).map(({ next_attempt_at: _due, ...armed }) => armed);
}

// ---- the worker's read ----

/** A delivery with what sending it needs from its subscription and its event. */
export interface SendContext extends Pick<
  DeliveryRow,
  | 'id'
  | 'created_at'
  | 'account_id'
  | 'webhook_id'
  | 'event_id'
  | 'event'
  | 'status'
  | 'attempts'
  | 'round_attempts'
  | 'job_seq'
  | 'ordering_key'
> {
  url: string;
  webhook_kind: 'http' | 'stream';
  webhook_status: 'active' | 'disabled';
  webhook_deleted_at: Date | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  legacy_secret_sealed: string | null;
  /** The subscription's throttle (deliveries per second), null when unthrottled. */
  rate_limit_per_second: number | null;
  inbox_id: string | null;
  message_id: string | null;
  payload: Record<string, unknown>;
  event_created_at: Date;
}

const SEND_CONTEXT = `SELECT d.id, d.created_at, d.account_id, d.webhook_id, d.event_id, d.event, d.status, d.attempts, d.round_attempts, d.job_seq, d.ordering_key,
            w.url, w.kind AS webhook_kind, w.status AS webhook_status, w.deleted_at AS webhook_deleted_at, w.secret_sealed,
            w.previous_secret_sealed, w.previous_secret_expires_at, w.legacy_secret_sealed, w.rate_limit_per_second,
            e.inbox_id, e.message_id, e.payload, e.created_at AS event_created_at`;

/** The earliest and latest of a batch's delivery times (null, null for none): the bounds of its day partitions. */
function spanOf(times: Date[]): [Date | null, Date | null] {
  if (times.length === 0) return [null, null];
  const ms = times.map((t) => t.getTime());
  return [new Date(Math.min(...ms)), new Date(Math.max(...ms))];
}

/**
 * `alias`.created_at between a batch's earliest and latest (the parameters `first`, `last`, from spanOf): only the
 * day partitions from one to the other are scanned (startupBound).
 */
const createdBetween = (alias: string, first: string, last: string) =>
  `${alias}.created_at BETWEEN ${startupBound(first)} AND ${startupBound(last)}`;

const LOAD_SEND_CONTEXTS = prepare<SendContext>(
  'load_send_contexts',
  `${SEND_CONTEXT}
     FROM unnest($1::uuid[], $2::timestamptz[]) AS x(id, created_at)
     CROSS JOIN LATERAL (SELECT * FROM webhook_deliveries d
                          WHERE d.id = x.id AND d.created_at = x.created_at
                            AND ${createdBetween('d', '$3', '$4')} LIMIT 1) d
     JOIN webhooks w ON w.id = d.webhook_id
     CROSS JOIN LATERAL (SELECT * FROM events e
                          WHERE e.id = d.event_id AND e.created_at = d.created_at
                            AND ${createdBetween('e', '$3', '$4')} LIMIT 1) e`,
);

/**
 * Deliveries with their subscription and event, in one round trip; the answer is aligned with `deliveryIds`.
 * A delivery shares its event's created_at, which names the event's partition too.
 *
 * Each delivery and its event are looked up by primary key in a LATERAL … LIMIT 1 (the key is unique, so the
 * limit changes no answer): a subquery with a LIMIT is not flattened into a join, so the only plans are one
 * index probe per id. As a plain join, a batch of 200 on a day partition not yet analyzed was planned as a hash
 * join over the whole of today's events (docs/plans.md#the-per-delivery-load).
 */
export async function loadSendContexts(conn: Conn, deliveryIds: string[]): Promise<Array<SendContext | undefined>> {
  const times = deliveryIds.map(uuidV7Time);
  const known = times.filter((t): t is Date => t !== null);
  const rows = await runPrepared(conn, LOAD_SEND_CONTEXTS, [
    deliveryIds.filter((_id, i) => times[i]),
    known,
    ...spanOf(known),
  ]);
  const legacy = deliveryIds.filter((_id, i) => !times[i]);
  if (legacy.length) {
    const old = await conn.raw(
      `${SEND_CONTEXT} FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       JOIN events e ON e.id = d.event_id AND e.created_at = d.created_at WHERE d.id = ANY (?::uuid[])`,
      [legacy],
    );
    rows.push(...(old.rows as SendContext[]));
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return deliveryIds.map((id) => byId.get(id));
}

// ---- transitions made by an attempt ----

/** One attempt as the worker saw it. Texts are storable already (the HTTP client made them so). */
export interface AttemptRecord {
  accountId: string;
  deliveryId: string;
  /** The delivery's created_at (its partition). */
  deliveryCreatedAt: Date;
  webhookId: string;
  event: string;
  url: string;
  /** The job_seq of the job that made the attempt. */
  seq: number;
  /** attempts + 1 as loaded; the number the attempt row gets. */
  attemptNumber: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  errorMessage: string | null;
  durationMs: number;
  /** The JSON text of the headers sent (attempt-headers.ts); null or left out: not recorded. */
  requestHeaders?: string | null;
  /** The JSON text of the receiver's headers, bounded and redacted (attempt-headers.ts); null: no answer. */
  responseHeaders?: string | null;
  /** Only for a retry: how long after now (the database's clock, see RETRY_DUE) the next attempt is due. */
  retryDelayMs?: number | null;
}

const INPUT = `input AS (
  SELECT * FROM unnest($1::text[], $2::uuid[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::int[], $11::text[], $12::text[], $13::text[], $14::int[], $15::int[], $16::text[], $17::text[])
    AS x(attempt_id, delivery_id, delivery_created_at, account_id, webhook_id, event, url, seq, attempt_number, response_status, response_body, error, error_message, duration_ms, retry_delay_ms, request_headers, response_headers)
)`;
/**
 * When a retry is due. Every scheduling column (next_attempt_at) is written and compared on the database's clock,
 * as are the partition key (created_at) and the delivery ids that carry it: it is the one clock every API and
 * worker process shares, and the relay sweep compares rows written by all of them.
 */
const RETRY_DUE = `now() + i.retry_delay_ms * interval '1 millisecond'`;
/**
 * The state an attempt may move a delivery from: pending, and held by the job that made the attempt. The batch's
 * ids ($2) also bound the scan itself, so that every plan reads the batch's rows by primary key: joined to the
 * input alone, a generic plan may read the whole day's candidates and keep the batch's few
 * (docs/plans.md#the-attempt-records).
 */
const HELD = `wd.id = i.delivery_id AND wd.created_at = i.delivery_created_at AND wd.account_id = i.account_id
  AND wd.status = 'pending' AND wd.job_seq = i.seq
  AND wd.id = ANY ($2::uuid[]) AND ${createdBetween('wd', '$18', '$19')}`;
/** The attempt row, whether or not the delivery moved; only a retry that moved plans a next attempt. */
const insertAttempts = (status: 'succeeded' | 'failed') => `a AS (
  INSERT INTO webhook_attempts (id, delivery_id, webhook_id, account_id, event, attempt_number, status, url,
                                response_status, response_body, error, error_message, duration_ms, next_attempt_at,
                                request_headers, response_headers)
  SELECT i.attempt_id, i.delivery_id, i.webhook_id, i.account_id, i.event, i.attempt_number, '${status}', i.url,
         i.response_status, i.response_body, i.error, i.error_message, i.duration_ms, CASE WHEN d.id IS NOT NULL THEN ${RETRY_DUE} END,
         i.request_headers::jsonb, i.response_headers::jsonb
    FROM input i LEFT JOIN d ON d.id = i.delivery_id
)`;

function inputColumns(items: AttemptRecord[]): unknown[] {
  const col = <K extends keyof AttemptRecord>(k: K) => items.map((r) => r[k] ?? null);
  return [
    items.map(() => newId('att')),
    col('deliveryId'),
    col('deliveryCreatedAt'),
    col('accountId'),
    col('webhookId'),
    col('event'),
    col('url'),
    col('seq'),
    col('attemptNumber'),
    col('responseStatus'),
    col('responseBody'),
    col('error'),
    col('errorMessage'),
    col('durationMs'),
    col('retryDelayMs'),
    col('requestHeaders'),
    col('responseHeaders'),
    // $18, $19: the day partitions the batch's deliveries are in (HELD).
    ...spanOf(items.map((r) => r.deliveryCreatedAt)),
  ];
}

/** Runs a transition for a batch of attempts; the answer is aligned with `items` (undefined: no row came back). */
async function transition<R extends { id: string }>(
  conn: Conn,
  statement: Prepared<R>,
  items: AttemptRecord[],
): Promise<Array<R | undefined>> {
  const rows = await runPrepared(conn, statement, inputColumns(items));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return items.map((i) => byId.get(i.deliveryId));
}

const RECORD_SUCCESSES = prepare<{ id: string; moved: boolean }>(
  'record_successes',
  `WITH ${INPUT}, d AS (
     UPDATE webhook_deliveries wd
        SET status = 'succeeded', attempts = wd.attempts + 1, round_attempts = wd.round_attempts + 1, last_error = NULL,
            last_response_status = i.response_status, next_attempt_at = NULL, completed_at = now(), updated_at = now()
       FROM input i WHERE ${HELD}
     RETURNING wd.id, wd.webhook_id
   ), ${insertAttempts('succeeded')}, w AS (
     UPDATE webhooks SET consecutive_failures = 0 WHERE id IN (SELECT webhook_id FROM d) AND consecutive_failures <> 0
   )
   SELECT i.delivery_id AS id, d.id IS NOT NULL AS moved FROM input i LEFT JOIN d ON d.id = i.delivery_id`,
);

/** pending → succeeded. Any success resets its subscription's consecutive count. Answers whether each moved. */
export async function recordSuccesses(conn: Conn, items: AttemptRecord[]): Promise<boolean[]> {
  const rows = await transition(conn, RECORD_SUCCESSES, items);
  return rows.map((r) => r?.moved === true);
}

const RECORD_RETRIES = prepare<{ id: string; job_seq: number | null }>(
  'record_retries',
  `WITH ${INPUT}, d AS (
     UPDATE webhook_deliveries wd
        SET attempts = wd.attempts + 1, round_attempts = wd.round_attempts + 1, last_error = i.error,
            last_response_status = i.response_status, next_attempt_at = ${RETRY_DUE}, job_seq = wd.job_seq + 1, updated_at = now()
       FROM input i WHERE ${HELD}
     RETURNING wd.id, wd.job_seq
   ), ${insertAttempts('failed')}
   SELECT i.delivery_id AS id, d.job_seq FROM input i LEFT JOIN d ON d.id = i.delivery_id`,
);

/** pending → pending, due `retryDelayMs` from now, held by the next job. Answers each new job_seq (null: did not move). */
export async function recordRetries(conn: Conn, items: AttemptRecord[]): Promise<Array<number | null>> {
  const rows = await transition(conn, RECORD_RETRIES, items);
  return rows.map((r) => r?.job_seq ?? null);
}

const RECORD_EXHAUSTIONS = prepare<{ id: string; consecutive_failures: number | null }>(
  'record_exhaustions',
  `WITH ${INPUT}, d AS (
     UPDATE webhook_deliveries wd
        SET status = 'exhausted', attempts = wd.attempts + 1, round_attempts = wd.round_attempts + 1, last_error = i.error,
            last_response_status = i.response_status, next_attempt_at = NULL, completed_at = now(), updated_at = now()
       FROM input i WHERE ${HELD}
     RETURNING wd.id, wd.webhook_id
   ), ${insertAttempts('failed')}, w AS (
     UPDATE webhooks wb SET consecutive_failures = wb.consecutive_failures + c.n
       FROM (SELECT webhook_id, count(*)::int AS n FROM d GROUP BY webhook_id) c
      WHERE wb.id = c.webhook_id
     RETURNING wb.id, wb.consecutive_failures
   )
   SELECT i.delivery_id AS id, w.consecutive_failures
     FROM input i JOIN d ON d.id = i.delivery_id JOIN w ON w.id = d.webhook_id`,
);

/**
 * pending → exhausted (the round's last retry failed). Each exhausted delivery adds one to its subscription's
 * consecutive count in the same statement; answers the count after it (null: the delivery did not move).
 */
export async function recordExhaustions(conn: Conn, items: AttemptRecord[]): Promise<Array<number | null>> {
  const rows = await transition(conn, RECORD_EXHAUSTIONS, items);
  return rows.map((r) => r?.consecutive_failures ?? null);
}

const RECORD_GONE = prepare<{ id: string; moved: boolean }>(
  'record_gone',
  `WITH ${INPUT}, d AS (
     UPDATE webhook_deliveries wd
        SET status = 'failed', attempts = wd.attempts + 1, round_attempts = wd.round_attempts + 1, last_error = i.error,
            last_response_status = i.response_status, next_attempt_at = NULL, completed_at = now(), updated_at = now()
       FROM input i WHERE ${HELD}
     RETURNING wd.id
   ), ${insertAttempts('failed')}
   SELECT i.delivery_id AS id, d.id IS NOT NULL AS moved FROM input i LEFT JOIN d ON d.id = i.delivery_id`,
);

/** pending → failed, final and not counted: the receiver answered 410 Gone. */
export async function recordGone(conn: Conn, items: AttemptRecord[]): Promise<boolean[]> {
  const rows = await transition(conn, RECORD_GONE, items);
  return rows.map((r) => r?.moved === true);
}

/** pending → failed with no attempt: the subscription was disabled or deleted (recoverSince finds it). */
export async function stopDelivery(
  conn: Conn,
  accountId: string,
  delivery: DeliveryRef,
  seq: number,
): Promise<boolean> {
  const q = conn('webhook_deliveries').where({
    id: delivery.id,
    created_at: delivery.created_at,
    account_id: accountId,
    status: 'pending',
    job_seq: seq,
  });
  return (
    (await q.update({
      status: 'failed',
      next_attempt_at: null,
      completed_at: conn.fn.now(),
      updated_at: conn.fn.now(),
    })) > 0
  );
}

// ---- transitions made by people and sweeps ----

const REOPEN = (conn: Conn) => ({
  status: 'pending',
  round_attempts: 0,
  // An ordered delivery rejoins its key queued, at its place in commit order; the key's hand-off arms it.
  next_attempt_at: conn.raw('CASE WHEN ordering_key IS NULL THEN now() END'),
  job_seq: conn.raw('job_seq + 1'),
  completed_at: null,
  updated_at: conn.fn.now(),
});

/**
 * succeeded | failed | exhausted → pending, with a fresh round of retries (redeliver): due now, or, when
 * ordered, queued in its key (then advanceOrderingKey arms it when its turn comes).
 */
export async function reopenDelivery(
  conn: Conn,
  accountId: string,
  delivery: DeliveryRef,
): Promise<ArmedDelivery | undefined> {
  const [row] = await conn('webhook_deliveries')
    .where({ id: delivery.id, created_at: delivery.created_at, account_id: accountId })
    .whereIn('status', ['succeeded', 'failed', 'exhausted'])
    .update(REOPEN(conn))
    .returning(ARMED);
  return row;
}

/**
 * failed | exhausted → pending with a fresh round, as reopenDelivery: a subscription's failures since `since`
 * (recoverSince).
 */
export function reopenFailedDeliveries(
  conn: Conn,
  accountId: string,
  webhookId: string,
  since: Date,
): Promise<ArmedDelivery[]> {
  return conn('webhook_deliveries')
    .where({ account_id: accountId, webhook_id: webhookId })
    .whereIn('status', ['failed', 'exhausted'])
    .where('created_at', '>=', since)
    .update(REOPEN(conn))
    .returning(ARMED);
}

/**
 * pending → pending, due now, held by a new job (redeliver of a delivery waiting for a retry). The job that was
 * waiting becomes stale, so the delivery is sent once, not twice. An ordered delivery queued behind its key's
 * head is left in its place: hastening it would overtake.
 */
export async function hastenDelivery(
  conn: Conn,
  accountId: string,
  delivery: DeliveryRef,
): Promise<ArmedDelivery | undefined> {
  const [row] = await conn('webhook_deliveries')
    .where({ id: delivery.id, created_at: delivery.created_at, account_id: accountId, status: 'pending' })
    .whereNotNull('next_attempt_at')
    .update({ next_attempt_at: conn.fn.now(), job_seq: conn.raw('job_seq + 1'), updated_at: conn.fn.now() })
    .returning(ARMED);
  return row;
}

// The status is a literal, and the bound on the due time says it is set, so that even a generic plan uses the
// partial index webhook_deliveries_due (status = 'pending' AND next_attempt_at IS NOT NULL). Prepared:
// planning a query that no partition bound prunes costs a few ms at 49 day partitions; a kept plan 0.6-0.9 ms.
type OverdueDelivery = Pick<ArmedDelivery, 'id' | 'created_at' | 'job_seq' | 'webhook_id' | 'ordering_key'> & {
  next_attempt_at: Date;
};
// webhook_id: what the delivery's partition is computed from (src/webhooks/dispatch.ts, deliveryPartitionOf).
const FIND_OVERDUE_DELIVERIES = prepare<OverdueDelivery>(
  'find_overdue_deliveries',
  `SELECT id, created_at, job_seq, webhook_id, ordering_key, next_attempt_at FROM webhook_deliveries
    WHERE status = 'pending' AND next_attempt_at < now() - $1::int * interval '1 millisecond' AND (next_attempt_at, id) > ($2::timestamptz, $3::uuid)
    ORDER BY next_attempt_at, id LIMIT $4`,
);

/** Pending deliveries more than `overdueMs` past due, oldest first, keyset-paged (the relay sweep's candidates). */
export async function findOverdueDeliveries(
  conn: Conn,
  overdueMs: number,
  limit: number,
  after?: { dueAt: Date; id: string },
): Promise<OverdueDelivery[]> {
  return runPrepared(conn, FIND_OVERDUE_DELIVERIES, [
    overdueMs,
    after?.dueAt ?? new Date(0),
    after?.id ?? '00000000-0000-0000-0000-000000000000',
    limit,
  ]);
}

/**
 * pending → pending, held by a new job: the one its job_seq named is gone (failed, removed, lost with Redis). The
 * relay sweep's deliveries are due ones, which webhook_deliveries_due holds: a batch of them may be read from it.
 */
export async function bumpDeliveryJobSeqs(
  conn: Conn,
  items: Array<Pick<ArmedDelivery, 'id' | 'created_at' | 'job_seq'>>,
): Promise<ArmedDelivery[]> {
  if (items.length === 0) return [];
  const { rows } = await conn.raw(
    `UPDATE webhook_deliveries wd SET job_seq = wd.job_seq + 1, updated_at = now()
       FROM unnest(?::uuid[], ?::timestamptz[], ?::int[]) AS x(id, created_at, seq)
      WHERE wd.id = x.id AND wd.created_at = x.created_at AND wd.status = 'pending' AND wd.job_seq = x.seq
        AND wd.next_attempt_at IS NOT NULL
     RETURNING wd.id, wd.created_at, wd.job_seq, wd.event, wd.webhook_id, wd.ordering_key`,
    [items.map((i) => i.id), items.map((i) => i.created_at), items.map((i) => i.job_seq)] as unknown as string[],
  );
  return rows;
}

// ---- reads for the API (bounded by the retention cutoff `since`) ----

export function findDelivery(
  conn: Conn,
  accountId: string,
  webhookId: string,
  deliveryId: string,
  since: Date,
): Promise<DeliveryRow | undefined> {
  const q = conn<DeliveryRow>('webhook_deliveries')
    .where({ account_id: accountId, webhook_id: webhookId })
    .where('created_at', '>=', since);
  return whereDelivery(q, deliveryId).first();
}

/** A delivery with the columns of its event that its envelope is built from. */
export type DeliveryWithEvent = DeliveryRow &
  Pick<SendContext, 'inbox_id' | 'message_id' | 'payload' | 'event_created_at'>;

/** One delivery and its event in one statement; the event shares the delivery's created_at (its partition). */
export function findDeliveryWithEvent(
  conn: Conn,
  accountId: string,
  webhookId: string,
  deliveryId: string,
  since: Date,
): Promise<DeliveryWithEvent | undefined> {
  const q = conn<DeliveryWithEvent>('webhook_deliveries as d')
    .join('events as e', (j) => j.on('e.id', 'd.event_id').andOn('e.created_at', 'd.created_at'))
    .select('d.*', 'e.inbox_id', 'e.message_id', 'e.payload', 'e.created_at as event_created_at')
    .where({ 'd.account_id': accountId, 'd.webhook_id': webhookId })
    .where('d.created_at', '>=', since);
  return whereDelivery(q, deliveryId, 'd.id').first();
}

export function listDeliveries(
  conn: Conn,
  accountId: string,
  webhookId: string,
  page: PageQuery,
  since: Date,
  only: { status?: DeliveryRow['status']; event?: string } = {},
) {
  const q = conn('webhook_deliveries')
    .where({ account_id: accountId, webhook_id: webhookId })
    .where('created_at', '>=', since);
  if (only.status) q.where('status', only.status);
  if (only.event) q.where('event', only.event);
  return paginate<DeliveryRow>(q, 'webhook_deliveries', page);
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  webhook_id: string;
  account_id: string;
  event: string;
  attempt_number: number;
  status: 'succeeded' | 'failed';
  url: string;
  response_status: number | null;
  response_body: string | null;
  request_headers: Record<string, string> | null;
  response_headers: Record<string, string> | null;
  error: string | null;
  error_message: string | null;
  duration_ms: number;
  next_attempt_at: Date | null;
  created_at: Date;
}

export function listAttempts(
  conn: Conn,
  accountId: string,
  webhookId: string,
  page: PageQuery,
  since: Date,
  deliveryId?: string,
) {
  const q = conn('webhook_attempts')
    .where({ account_id: accountId, webhook_id: webhookId })
    .where('created_at', '>=', since);
  if (deliveryId) {
    q.where({ delivery_id: deliveryId });
    // No attempt is older than its delivery: the partitions before it are skipped.
    const born = uuidV7Time(deliveryId);
    if (born) q.where('created_at', '>=', born);
  }
  return paginate<AttemptRow>(q, 'webhook_attempts', page);
}
