import { prepare, runPrepared, type Conn, type Prepared } from '../../platform/db.js';
import { newId } from '../../platform/ids.js';
import { createdBetween, spanOf } from './load.js';
import type { DeliveryRef } from './rows.js';

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
 * worker process shares, and the sweep compares rows written by all of them.
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

/** What every attempt's transition writes on the delivery, whichever state it leads to. */
const ATTEMPTED = `attempts = wd.attempts + 1, round_attempts = wd.round_attempts + 1,
            last_response_status = i.response_status, updated_at = now()`;
/** What a transition to a final state writes besides. */
const FINAL = `next_attempt_at = NULL, completed_at = now()`;

/**
 * One transition made by a batch of attempts, as one statement: the delivery rows the batch still holds move
 * (`set`, returning `returning`), every attempt gets its row (`attempt`), the subscription's count follows
 * (`subscription`, a statement over the moved rows d), and `answer` says per input what came of it. The four
 * transitions differ only in these parts.
 */
function recordStatement<Row>(
  name: string,
  parts: { set: string; returning: string; attempt: 'succeeded' | 'failed'; subscription?: string; answer: string },
): Prepared<Row> {
  return prepare<Row>(
    name,
    `WITH ${INPUT}, d AS (
       UPDATE webhook_deliveries wd SET ${ATTEMPTED}, ${parts.set}
         FROM input i WHERE ${HELD}
       RETURNING ${parts.returning}
     ), ${insertAttempts(parts.attempt)}${parts.subscription ? `, w AS (${parts.subscription})` : ''}
     ${parts.answer}`,
    { seqScan: false },
  );
}

/** Per input: whether its delivery moved. */
const MOVED = 'SELECT i.delivery_id AS id, d.id IS NOT NULL AS moved FROM input i LEFT JOIN d ON d.id = i.delivery_id';

const RECORD_SUCCESSES = recordStatement<{ id: string; moved: boolean }>('record_successes', {
  set: `status = 'succeeded', last_error = NULL, ${FINAL}`,
  returning: 'wd.id, wd.webhook_id',
  attempt: 'succeeded',
  subscription: `UPDATE webhooks SET consecutive_failures = 0
                  WHERE id IN (SELECT webhook_id FROM d) AND consecutive_failures <> 0`,
  answer: MOVED,
});

/** pending → succeeded. Any success resets its subscription's consecutive count. Answers whether each moved. */
export async function recordSuccesses(conn: Conn, items: AttemptRecord[]): Promise<boolean[]> {
  const rows = await transition(conn, RECORD_SUCCESSES, items);
  return rows.map((r) => r?.moved === true);
}

const RECORD_RETRIES = recordStatement<{ id: string; job_seq: number | null }>('record_retries', {
  set: `last_error = i.error, next_attempt_at = ${RETRY_DUE}, job_seq = wd.job_seq + 1`,
  returning: 'wd.id, wd.job_seq',
  attempt: 'failed',
  answer: 'SELECT i.delivery_id AS id, d.job_seq FROM input i LEFT JOIN d ON d.id = i.delivery_id',
});

/**
 * pending → pending, due `retryDelayMs` from now, held by the next job. Answers each new job_seq (null: did not move).
 */
export async function recordRetries(conn: Conn, items: AttemptRecord[]): Promise<Array<number | null>> {
  const rows = await transition(conn, RECORD_RETRIES, items);
  return rows.map((r) => r?.job_seq ?? null);
}

const RECORD_EXHAUSTIONS = recordStatement<{ id: string; consecutive_failures: number | null }>('record_exhaustions', {
  set: `status = 'exhausted', last_error = i.error, ${FINAL}`,
  returning: 'wd.id, wd.webhook_id',
  attempt: 'failed',
  subscription: `UPDATE webhooks wb SET consecutive_failures = wb.consecutive_failures + c.n
                     FROM (SELECT webhook_id, count(*)::int AS n FROM d GROUP BY webhook_id) c
                    WHERE wb.id = c.webhook_id
                   RETURNING wb.id, wb.consecutive_failures`,
  answer: `SELECT i.delivery_id AS id, w.consecutive_failures
               FROM input i JOIN d ON d.id = i.delivery_id JOIN w ON w.id = d.webhook_id`,
});

/**
 * pending → exhausted (the round's last retry failed). Each exhausted delivery adds one to its subscription's
 * consecutive count in the same statement; answers the count after it (null: the delivery did not move).
 */
export async function recordExhaustions(conn: Conn, items: AttemptRecord[]): Promise<Array<number | null>> {
  const rows = await transition(conn, RECORD_EXHAUSTIONS, items);
  return rows.map((r) => r?.consecutive_failures ?? null);
}

const RECORD_GONE = recordStatement<{ id: string; moved: boolean }>('record_gone', {
  set: `status = 'failed', last_error = i.error, ${FINAL}`,
  returning: 'wd.id',
  attempt: 'failed',
  answer: MOVED,
});

/** pending → failed, final and not counted: the receiver answered 410 Gone. */
export async function recordGone(conn: Conn, items: AttemptRecord[]): Promise<boolean[]> {
  const rows = await transition(conn, RECORD_GONE, items);
  return rows.map((r) => r?.moved === true);
}

const STOP_DELIVERY = prepare<{ id: string }>(
  'stop_delivery',
  `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, completed_at = now(), updated_at = now()
    WHERE id = $1 AND created_at = $2 AND account_id = $3 AND status = 'pending' AND job_seq = $4
   RETURNING id`,
  { seqScan: false },
);

/** pending → failed with no attempt: the subscription was disabled or deleted (recoverSince finds it). */
export async function stopDelivery(
  conn: Conn,
  accountId: string,
  delivery: DeliveryRef,
  seq: number,
): Promise<boolean> {
  const rows = await runPrepared(conn, STOP_DELIVERY, [delivery.id, delivery.created_at, accountId, seq]);
  return rows.length > 0;
}

const PARK_DELIVERY = prepare<{ id: string }>(
  'park_delivery',
  `UPDATE webhook_deliveries SET next_attempt_at = NULL, job_seq = job_seq + 1, updated_at = now()
    WHERE id = $1 AND created_at = $2 AND account_id = $3 AND status = 'pending' AND job_seq = $4
   RETURNING id`,
  { seqScan: false },
);

/**
 * pending → pending with no due time and no job: a delivery of a pulled kind waits for its consumer's poll
 * (src/delivery/transport.ts). No attempt is recorded: nothing was sent.
 */
export async function parkDelivery(
  conn: Conn,
  accountId: string,
  delivery: DeliveryRef,
  seq: number,
): Promise<boolean> {
  const rows = await runPrepared(conn, PARK_DELIVERY, [delivery.id, delivery.created_at, accountId, seq]);
  return rows.length > 0;
}
