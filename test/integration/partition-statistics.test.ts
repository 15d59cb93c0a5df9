import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEvents } from '../../src/events/events.repository.js';
import {
  createDayPartition,
  dayStart,
  partitionName,
  PARTITIONED_TABLES,
} from '../../src/maintenance/partitions.repository.js';
import { FILLING_ANALYZE_SCALE_FACTOR, FILLING_ANALYZE_THRESHOLD } from '../../src/maintenance/partition-statistics.js';
import { maintainPartitions } from '../../src/maintenance/partitions.service.js';
import { DAY_MS } from '../../src/maintenance/retention.js';
import { createDb, type Db } from '../../src/platform/db.js';
import * as fanOut from '../../src/delivery/sql/fan-out.js';
import { findStrandedOrderingKeys } from '../../src/delivery/sql/ordering-keys.js';
import * as loadSql from '../../src/delivery/sql/load.js';
import * as recordSql from '../../src/delivery/sql/record.js';
import * as deliveries from '../../src/webhooks/deliveries.repository.js';
import * as rows from '../../src/delivery/sql/rows.js';
import * as sweep from '../../src/delivery/sql/sweep.js';
import { findHealth, findStatBuckets } from '../../src/webhooks/endpoint-stats.repository.js';
import { captureStatements, explain, sequentialReads } from '../helpers/explain.js';
import { failedAttemptOf, seedAccountId, seedTraffic, seedWebhookId } from '../helpers/seed-traffic.js';
import { waitUntil } from '../helpers/wait.js';
import { runIdleSweeps } from '../helpers/idle-sweeps.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import type { Trx } from '../../src/platform/transaction.js';

// Today's day partitions filled faster than autoanalyze looks at them (docs/plans.md). A partition is created days
// ahead, empty and never analyzed; at midnight it starts taking every new row, and until its first ANALYZE the
// planner knows its size but nothing of its columns, while a worker's connection may keep the generic plan it
// made when the partition was empty. The sweep, the other idle sweeps and the everyday statements, run as
// the service runs them (batches of the delivery pipeline's size, named statements warmed on one long-lived
// connection before the fill), must read no partition whole: no sequential scan of today's partitions, whether
// explained (custom and generic plans) or counted by Postgres as they run (pg_stat_xact_user_tables).

const TODAY_ROWS = 40_000;
/** The delivery pipeline's largest coalesced batch (src/platform/coalescer.ts). */
const BATCH = 200;
const today = dayStart(new Date());
const todays = new Set(PARTITIONED_TABLES.map((table) => partitionName(table, today)));

let t: TestContext;
let worker: Db;
let explainer: pg.Client;
const A = seedAccountId(7);
const W = seedWebhookId(7);
type Armed = rows.ScheduledDelivery;
let ref: { pending: Armed; succeeded: Armed; eventId: string; batch: Armed[] };
const since = () => new Date(Date.now() - 30 * DAY_MS);

/** One subscription's traffic into today's partitions, as the service writes it: inserted pending, then settled. */
async function fillToday(db: Db, rows: number): Promise<void> {
  const from = new Date(Math.max(today.getTime(), Date.now() - 3600_000)).toISOString();
  await db.raw(
    `INSERT INTO events (id, account_id, type, payload, created_at)
     SELECT 'evt_t' || lpad(g::text, 19, '0'), ?, 'message.received', '{"n":1}',
            ?::timestamptz + g * interval '1 millisecond'
       FROM generate_series(1, ?::int) g`,
    [A, from, rows],
  );
  await db.raw(
    `INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, event, created_at, updated_at,
                                     next_attempt_at)
     SELECT sb_uuid_v7(created_at), account_id, ?, id, type, created_at, created_at, created_at
       FROM events WHERE created_at >= ?`,
    [W, today],
  );
  await db.raw(
    `INSERT INTO webhook_attempts (id, delivery_id, webhook_id, account_id, event, attempt_number, status, url,
                                   response_status, duration_ms, created_at)
     SELECT 'att_' || substr(event_id, 5), id, webhook_id, account_id, event, 1, 'succeeded', 'https://example.com/',
            200, 20, created_at
       FROM webhook_deliveries WHERE created_at >= ?`,
    [today],
  );
  // One in a hundred is left waiting for a retry an hour out; the rest succeeded.
  await db.raw(
    `UPDATE webhook_deliveries
        SET status = CASE WHEN abs(hashtext(id::text)) % 100 = 0 THEN 'pending' ELSE 'succeeded' END,
            attempts = 1, round_attempts = 1, completed_at = created_at,
            next_attempt_at = CASE WHEN abs(hashtext(id::text)) % 100 = 0 THEN now() + interval '1 hour' END
      WHERE created_at >= ?`,
    [today],
  );
}

const record = (d: rows.ScheduledDelivery) => failedAttemptOf(d, A, W);
const page = { limit: 20 };

/** Idle sweeps and everyday statements, with today's rows (ref is read before the fill from an older day). */
const STATEMENTS: Array<[string, (trx: Trx) => Promise<unknown>]> = [
  ['sweep: overdue deliveries', (trx) => sweep.findOverdueDeliveries(trx, 10_000, 1000)],
  ['sweep: schedule again a batch', (trx) => sweep.bumpDeliveryJobSeqs(trx, ref.batch)],
  ['sweep: stranded ordering keys', (trx) => findStrandedOrderingKeys(trx, 0, 1000)],
  [
    'worker: load a batch of send contexts',
    (trx) =>
      loadSql.loadSendContexts(
        trx,
        ref.batch.map((d) => d.id),
      ),
  ],
  ['worker: load one send context', (trx) => loadSql.loadSendContexts(trx, [ref.pending.id])],
  ['worker: record a batch of successes', (trx) => recordSql.recordSuccesses(trx, ref.batch.map(record))],
  ['worker: record a batch of retries', (trx) => recordSql.recordRetries(trx, ref.batch.map(record))],
  ['worker: stop a delivery', (trx) => recordSql.stopDelivery(trx, A, ref.pending, ref.pending.job_seq)],
  ['fan-out job: pending deliveries of an event', (trx) => fanOut.findPendingDeliveriesOfEvent(trx, ref.eventId)],
  [
    'redeliver: find, reopen, hasten',
    async (trx) => [
      await deliveries.findDelivery(trx, A, W, ref.succeeded.id, since()),
      await deliveries.reopenDelivery(trx, A, ref.succeeded),
      await deliveries.hastenDelivery(trx, A, ref.pending),
    ],
  ],
  ['enable: recoverSince', (trx) => deliveries.reopenFailedDeliveries(trx, A, W, new Date(Date.now() - 3 * DAY_MS))],
  [
    'list deliveries, two pages',
    async (trx) => {
      const first = await deliveries.listDeliveries(trx, A, W, page, since());
      return deliveries.listDeliveries(trx, A, W, { ...page, cursor: first.nextCursor ?? undefined }, since());
    },
  ],
  [
    'list attempts, of a subscription and of a delivery',
    async (trx) => [
      await deliveries.listAttempts(trx, A, W, page, since()),
      await deliveries.listAttempts(trx, A, W, page, since(), ref.succeeded.id),
    ],
  ],
  ['feed', (trx) => listEvents(trx, A, page, since())],
  [
    'endpoint stats',
    async (trx) => [await findStatBuckets(trx, A, W, new Date(Date.now() - 7 * DAY_MS)), await findHealth(trx, A, W)],
  ],
  ['other idle sweeps', runIdleSweeps],
];

async function pickRefs(db: Db, from: Date): Promise<typeof ref> {
  const pick = async (status: string) =>
    (await db('webhook_deliveries')
      .select('id', 'created_at', 'job_seq', 'event_id')
      .where({ account_id: A, webhook_id: W, status })
      .where('created_at', '>=', from)
      .orderBy('created_at', 'desc')
      .first())!;
  const pending = await pick('pending');
  const batch = await db('webhook_deliveries')
    .select('id', 'created_at', 'job_seq')
    .where({ webhook_id: W })
    .where('created_at', '>=', from)
    .orderBy('created_at', 'desc')
    .limit(BATCH);
  return { pending, succeeded: await pick('succeeded'), eventId: pending.event_id, batch };
}

/** Run on one connection: what it read sequentially of today's partitions. */
const seqReadsOfToday = (db: Db, run: (trx: Trx) => Promise<unknown>) => sequentialReads(db, [...todays], run);

beforeAll(async () => {
  t = await createTestContext();
  const { db } = t.deps;
  // Three earlier days of analyzed traffic; then today's partitions as the maintenance job makes them days ahead:
  // empty, never analyzed (the seed's ANALYZE reached them; they are made again), autovacuum off for the test.
  const from = new Date(today.getTime() - 3 * DAY_MS);
  await seedTraffic(t.deps, { rows: 30_000, from, to: today, accounts: 20, webhooks: 50, payload: 'tiny' });
  for (const table of PARTITIONED_TABLES) {
    await db.raw(`DROP TABLE ??`, [partitionName(table, today)]);
    await createDayPartition(db, table, today);
    await db.raw(`ALTER TABLE ?? SET (autovacuum_enabled = off)`, [partitionName(table, today)]);
  }
  // A worker's long-lived connection runs every statement (past the five custom plans) while today is empty.
  worker = createDb(t.deps.config.database.url, { pool: { min: 1, max: 1 } });
  ref = await pickRefs(db, new Date(0));
  for (const [, run] of STATEMENTS) for (let i = 0; i < 7; i++) await seqReadsOfToday(worker, run);
  await fillToday(db, TODAY_ROWS);
  ref = await pickRefs(db, today);
  explainer = new pg.Client({ connectionString: t.deps.config.database.url });
  await explainer.connect();
}, 300_000);
afterAll(async () => {
  await explainer?.end();
  await worker?.destroy();
  await t?.close();
});

describe("today's partitions filled before their first analyze", () => {
  it('hold the rows, and have no statistics yet', async () => {
    const { rows } = await t.deps.db.raw(
      `SELECT count(*)::int AS n, max(last_analyze) AS analyzed FROM pg_stat_user_tables WHERE relname = ANY (?)`,
      [[...todays]],
    );
    expect(rows[0]).toEqual({ n: 3, analyzed: null });
    expect(ref.batch).toHaveLength(BATCH);
  });

  it.each(STATEMENTS)('%s: explained, custom and generic, reads none of them whole', async (_name, run) => {
    for (const s of await captureStatements(t.deps.db, run)) {
      const { custom, generic } = await explain(explainer, s);
      const seq = [...custom, ...(generic ?? [])].filter((n) => n.nodeType === 'Seq Scan' && todays.has(n.relation));
      expect(seq, s.sql).toEqual([]);
    }
  });

  it.each(STATEMENTS)('%s: run where it was planned while today was empty, reads none whole', async (_n, run) => {
    expect(await seqReadsOfToday(worker, run)).toEqual([]);
  });
});

describe('the maintenance job', () => {
  const tomorrow = new Date(today.getTime() + DAY_MS);
  const settingsOf = async (name: string): Promise<string[] | null> =>
    (await t.deps.db.raw(`SELECT reloptions FROM pg_class WHERE relname = ?`, [name])).rows[0].reloptions;

  it("analyzes today's partitions grown past the rule, and gives today and tomorrow the filling rule", async () => {
    // The fill's row counts reach the statistics system when its connections report them (within seconds), each
    // statement's on its own: the job judges each partition by its own count. The deliveries' settling update is
    // waited for too: counted after the job's analyze, it would be changes since that analyze.
    await waitUntil(
      async () => {
        const { rows } = await t.deps.db.raw(
          `SELECT count(*)::int AS n FROM pg_stat_user_tables
            WHERE relname = ANY (?) AND n_live_tup >= ? AND (relname <> ? OR n_tup_upd >= ?)`,
          [[...todays], TODAY_ROWS, partitionName('webhook_deliveries', today), TODAY_ROWS],
        );
        return rows[0].n === todays.size;
      },
      30_000,
      "today's rows counted in every table",
    );
    const result = await maintainPartitions(t.deps);
    expect(result.analyzed).toEqual(expect.arrayContaining([...todays]));
    // Tomorrow's partitions are empty: statistics saying "no rows" would make a plan cached now treat them as empty.
    const tomorrows = PARTITIONED_TABLES.map((table) => partitionName(table, tomorrow));
    expect(result.analyzed.filter((name) => tomorrows.includes(name))).toEqual([]);
    const { rows } = await t.deps.db.raw(
      `SELECT count(*)::int AS n FROM pg_stat_user_tables WHERE relname = ANY (?) AND last_analyze IS NOT NULL`,
      [[...todays]],
    );
    expect(rows[0].n).toBe(3);
    for (const table of PARTITIONED_TABLES) {
      for (const day of [today, tomorrow]) {
        expect(await settingsOf(partitionName(table, day))).toEqual(
          expect.arrayContaining([
            `autovacuum_analyze_threshold=${FILLING_ANALYZE_THRESHOLD}`,
            `autovacuum_analyze_scale_factor=${FILLING_ANALYZE_SCALE_FACTOR}`,
          ]),
        );
      }
    }
  });

  it('leaves statistics that are fresh alone, and sets the rule once', async () => {
    const again = await maintainPartitions(t.deps);
    expect(again.analyzed.filter((name) => todays.has(name))).toEqual([]);
    expect(again.configured).toEqual([]);
  });

  it.each(STATEMENTS)('%s: after the analyze, planned on an empty day, reads none whole', async (_n, run) => {
    expect(await seqReadsOfToday(worker, run)).toEqual([]);
  });
});
