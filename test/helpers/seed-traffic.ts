import { ensureDayPartitions } from '../../src/maintenance/partitions.service.js';
import { dayStart, partitionName, PARTITIONED_TABLES } from '../../src/maintenance/partitions.repository.js';
import { DAY_MS } from '../../src/maintenance/retention.js';
import type { Deps } from '../../src/app/deps.js';
import type { Conn } from '../../src/platform/db.js';
import type { AttemptRecord } from '../../src/delivery/sql/record.js';
import type { ScheduledDelivery } from '../../src/delivery/sql/rows.js';
import { transaction } from '../../src/platform/transaction.js';

// Webhook traffic seeded in bulk, for the query-plan test and the scale benchmark: `rows` events, as many
// deliveries (one per event) and as many attempts (one per delivery), spread evenly over [from, to), written
// with INSERT … SELECT from generate_series one day partition at a time (the service's own tables, indexes
// and all; nothing is rebuilt, and only a `quick` seed skips the WAL and the foreign keys' checks). Event g
// (1 … rows, newest first) is created at from + (rows - g) × step, counted from `from` so that the oldest is
// exactly `from` (counted back from `to`, the rounding of rows × step could put it a millisecond before `from`, in
// a day no partition was made for), and goes to subscription webhookOf(g), which belongs to account
// webhookOf(g) % accounts.
//
// Ids have the service's lengths (acct_ + 20, wh_ + 20, evt_ + 20, att_ + 20; deliveries are UUIDv7 stamped
// with their event's created_at, as the fan-out writes them), so byte counts per row are the service's.

export interface TrafficSeed {
  rows: number;
  /** created_at is spread evenly over [from, to). */
  from: Date;
  to: Date;
  accounts: number;
  /** Subscription w belongs to account w % accounts. */
  webhooks: number;
  /** 80 % of the traffic on a fifth of the subscriptions (else even). */
  skewed?: boolean;
  /** 'message': a message.received payload as the service writes it (text 40–400 chars); 'tiny': {"n":1}. */
  payload?: 'message' | 'tiny';
  /**
   * About 1 % of deliveries are pending (a retry scheduled `pendingDueInMs` from now); only among those created at
   * or after `pendingSince` when given (older ones count as succeeded), so that expired days hold none.
   */
  pendingSince?: Date;
  pendingDueInMs?: number;
  /** Called after each day is written. */
  onDay?: (day: Date, ms: number) => void;
  /** Accounts and subscriptions are there already (an earlier seed): only traffic is written. */
  accountsSeeded?: boolean;
  /** false: no ANALYZE at the end (a day filled faster than autoanalyze looks at it). */
  analyze?: boolean;
  /**
   * For a test of plans, which the planner makes alike either way: the seeded days' partitions made UNLOGGED first
   * (no WAL for the rows), and the rows written with the foreign keys' per-row checks off (`session_replication_role
   * = replica`; the seed's ids hold by construction). Not for a benchmark, whose figures include both.
   */
  quick?: boolean;
}

/** Ids of the seeded accounts and subscriptions, at the service's lengths. */
export const seedAccountId = (a: number): string => `acct_seed${String(a).padStart(16, '0')}`;
export const seedWebhookId = (w: number): string => `wh_seed${String(w).padStart(16, '0')}`;
/** The same ids, as SQL over an integer expression. */
export const seedAccountSql = (expr: string): string => `('acct_seed' || lpad((${expr})::text, 16, '0'))`;
export const seedWebhookSql = (expr: string): string => `('wh_seed' || lpad((${expr})::text, 16, '0'))`;

/** Accounts and their subscriptions (every one subscribed to message.received). */
export async function seedAccounts(deps: Deps, accounts: number, webhooks: number): Promise<void> {
  await deps.db.raw(
    `INSERT INTO accounts (id, name) SELECT ${seedAccountSql('a')}, 'Seed ' || a FROM generate_series(0, ${accounts - 1}) a`,
  );
  await deps.db.raw(`INSERT INTO webhooks (id, account_id, url, events, secret_sealed)
    SELECT ${seedWebhookSql('w')}, ${seedAccountSql(`w % ${accounts}`)}, 'https://hooks.example.com/switchboard/' || w, '{message.received}', 'v1.a.b.c'
      FROM generate_series(0, ${webhooks - 1}) w`);
}

/** Seeds accounts, subscriptions and traffic as described above, then ANALYZEs the three tables (unless told not). */
export async function seedTraffic(deps: Deps, s: TrafficSeed): Promise<void> {
  const { db } = deps;
  const { rows, accounts, webhooks } = s;
  const first = dayStart(s.from);
  const last = dayStart(new Date(s.to.getTime() - 1));
  await ensureDayPartitions(deps, first, Math.round((last.getTime() - first.getTime()) / DAY_MS));
  const days: Date[] = [];
  for (let day = first; day.getTime() <= last.getTime(); day = new Date(day.getTime() + DAY_MS)) days.push(day);
  if (s.quick) {
    for (const day of days) {
      for (const table of PARTITIONED_TABLES) await db.raw('ALTER TABLE ?? SET UNLOGGED', [partitionName(table, day)]);
    }
  }
  if (!s.accountsSeeded) await seedAccounts(deps, accounts, webhooks);

  const stepMs = (s.to.getTime() - s.from.getTime()) / rows;
  const hot = Math.max(1, Math.floor(webhooks / 5));
  const webhookOf = (g: string) =>
    s.skewed ? `(CASE WHEN ${g} % 5 < 4 THEN ${g} % ${hot} ELSE ${g} % ${webhooks} END)` : `(${g} % ${webhooks})`;
  const from = s.from.toISOString();
  const at = (g: string) =>
    `date_trunc('milliseconds', '${from}'::timestamptz + (${rows} - ${g}) * interval '${stepMs} milliseconds')`;
  const payload =
    s.payload === 'message'
      ? `jsonb_build_object('id', 'msg_' || lpad(g::text, 20, '0'), 'agentId', 'agt_' || lpad((g % 997)::text, 20, '0'),
           'conversationId', 'conv_' || lpad((g / 7)::text, 20, '0'), 'inboxId', 'inb_' || lpad((g % 997)::text, 20, '0'),
           'contactId', 'ct_' || lpad((g % 50021)::text, 20, '0'), 'runId', NULL, 'direction', 'inbound', 'channel', 'email',
           'status', 'received', 'from', 'customer' || (g % 50021) || '@example.com', 'to', 'support' || (g % 997) || '@inbound.example.com',
           'subject', 'Re: order #' || g, 'text', left(repeat(md5(g::text) || ' ', 12), 40 + (g % 361)::int), 'error', NULL,
           'sentAt', NULL, 'createdAt', ts, 'updatedAt', ts)`
      : `'{"n":1}'::jsonb`;
  // The status of delivery g: a hash of g, so that statuses are spread over every day and subscription.
  const roll = `abs(hashint8(g) % 100)`;
  const pending = s.pendingSince
    ? `(${roll} = 0 AND e.created_at >= '${s.pendingSince.toISOString()}'::timestamptz)`
    : `(${roll} = 0)`;
  const due = `now() + interval '${s.pendingDueInMs ?? 3600_000} milliseconds'`;

  /** One day's events, deliveries and attempts. */
  const writeDay = async (conn: Conn, day: Date) => {
    const started = performance.now();
    const next = new Date(day.getTime() + DAY_MS);
    // The g whose created_at may fall in this day (a little wider; the WHERE keeps the exact ones).
    const lo = Math.max(1, Math.floor((s.to.getTime() - next.getTime()) / stepMs) - 1);
    const hi = Math.min(rows, Math.ceil((s.to.getTime() - day.getTime()) / stepMs) + 1);
    if (lo > hi) return;
    const range = [day.toISOString(), next.toISOString()];
    await conn.raw(
      `INSERT INTO events (id, account_id, type, inbox_id, message_id, payload, created_at)
       SELECT 'evt_' || lpad(g::text, 20, '0'), ${seedAccountSql(`${webhookOf('g')} % ${accounts}`)}, 'message.received',
              ${s.payload === 'message' ? `'inb_' || lpad((g % 997)::text, 20, '0'), 'msg_' || lpad(g::text, 20, '0')` : 'NULL, NULL'}, ${payload}, created_at
         FROM (SELECT g, ${at('g')} AS created_at, to_char(${at('g')} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts
                 FROM generate_series(${lo}::bigint, ${hi}::bigint) g) x
        WHERE created_at >= ?::timestamptz AND created_at < ?::timestamptz`,
      range,
    );
    await conn.raw(
      `INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, event, status, attempts, round_attempts, next_attempt_at,
                                       last_error, last_response_status, completed_at, created_at, updated_at)
       SELECT sb_uuid_v7(e.created_at), e.account_id, ${seedWebhookSql(webhookOf('e.g'))}, e.id, e.type, e.status, 1, 1,
              CASE WHEN e.status = 'pending' THEN ${due} END,
              CASE WHEN e.status IN ('pending', 'failed', 'exhausted') THEN 'http_status' END,
              CASE WHEN e.status IN ('pending', 'failed', 'exhausted') THEN 500 ELSE 200 END,
              CASE WHEN e.status <> 'pending' THEN e.created_at + interval '80 milliseconds' END, e.created_at, e.created_at + interval '80 milliseconds'
         FROM (SELECT e.*, CASE WHEN ${pending} THEN 'pending' WHEN ${roll} = 1 THEN 'exhausted' WHEN ${roll} = 2 THEN 'failed' ELSE 'succeeded' END AS status
                 FROM (SELECT *, substr(id, 5)::bigint AS g FROM events WHERE created_at >= ?::timestamptz AND created_at < ?::timestamptz) e) e`,
      range,
    );
    await conn.raw(
      `INSERT INTO webhook_attempts (id, delivery_id, webhook_id, account_id, event, attempt_number, status, url, response_status, response_body,
                                     error, error_message, duration_ms, next_attempt_at, created_at)
       SELECT 'att_' || substr(d.event_id, 5), d.id, d.webhook_id, d.account_id, d.event, 1,
              CASE WHEN d.status = 'succeeded' THEN 'succeeded' ELSE 'failed' END, 'https://hooks.example.com/switchboard/' || substr(d.webhook_id, 8)::int,
              d.last_response_status, CASE WHEN d.status = 'succeeded' THEN 'OK' ELSE '{"error":"internal server error"}' END,
              d.last_error, CASE WHEN d.status <> 'succeeded' THEN 'receiver answered 500' END, 20 + abs(hashint8(substr(d.event_id, 5)::bigint) % 300),
              d.next_attempt_at, d.created_at + interval '80 milliseconds'
         FROM webhook_deliveries d WHERE d.created_at >= ?::timestamptz AND d.created_at < ?::timestamptz`,
      range,
    );
    s.onDay?.(day, performance.now() - started);
  };
  if (s.quick) {
    await transaction(db, async (trx) => {
      await trx.raw('SET LOCAL session_replication_role = replica');
      for (const day of days) await writeDay(trx, day);
    });
  } else {
    for (const day of days) await writeDay(db, day);
  }
  if (s.analyze !== false) await db.raw('ANALYZE accounts, webhooks, events, webhook_deliveries, webhook_attempts');
}

/** A failed attempt (500, retry in a minute) for a seeded delivery: what the worker records, for plan tests. */
export function failedAttemptOf(d: ScheduledDelivery, accountId: string, webhookId: string): AttemptRecord {
  return {
    accountId,
    deliveryId: d.id,
    deliveryCreatedAt: d.created_at,
    webhookId,
    event: 'message.received',
    url: 'https://example.com/',
    seq: d.job_seq,
    attemptNumber: 2,
    responseStatus: 500,
    responseBody: 'x',
    error: 'http_status',
    errorMessage: 'receiver answered 500',
    durationMs: 3,
    retryDelayMs: 60_000,
  };
}
