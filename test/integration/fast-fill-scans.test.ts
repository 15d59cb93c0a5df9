import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEvents } from '../../src/events/events.repository.js';
import {
  createDayPartition,
  dayStart,
  partitionName,
  PARTITIONED_TABLES,
} from '../../src/maintenance/partitions.repository.js';
import { DAY_MS } from '../../src/maintenance/retention.js';
import { createDb, type Db } from '../../src/platform/db.js';
import { transaction, type Trx } from '../../src/platform/transaction.js';
import * as fanOut from '../../src/delivery/sql/fan-out.js';
import * as orderingSql from '../../src/delivery/sql/ordering-keys.js';
import * as recordSql from '../../src/delivery/sql/record.js';
import type { ScheduledDelivery } from '../../src/delivery/sql/rows.js';
import * as sweepSql from '../../src/delivery/sql/sweep.js';
import * as deliveries from '../../src/webhooks/deliveries.repository.js';
import { findHealth, findStatBuckets } from '../../src/webhooks/endpoint-stats.repository.js';
import { sequentialReads, type SequentialRead } from '../helpers/explain.js';
import { failedAttemptOf, seedAccountId, seedAccounts, seedWebhookId } from '../helpers/seed-traffic.js';
import { runIdleSweeps } from '../helpers/idle-sweeps.js';
import { readLog, skippedBefore } from '../../src/mcp/events/log.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { waitUntil } from '../helpers/wait.js';

// A day filled faster than anything analyzes it (docs/plans.md#the-stranded-key-check). Producers
// commit 20,000 events through the fan-out statement, a delivery each, and the worker records their attempts as
// they come, while the sweep runs on a worker's long-lived connection. A new day starts mid-load: the day's rows
// go to one partition until then and to a fresh one after, both never analyzed, as a day's partition is while it
// fills. Then the idle sweeps and the everyday reads run, on that connection and on a new one: Postgres's own
// counters (pg_stat_user_tables) must show no sequential read of any day partition.

const EVENTS = 20_000;
/** Events committed a second at most (a loaded machine manages fewer): the day is full before anything looks. */
const RATE = 800;
const PER_COMMIT = 20;
const PRODUCERS = 4;
/**
 * When the new day starts: this long after the day's partitions are made. The load's first half (12.5 s at RATE)
 * commits before it, or as much of it as a loaded machine manages after planning the statements and holding the
 * keys; the rest commits after it.
 */
const MIDNIGHT_AFTER_MS = 30_000;
const A = seedAccountId(0);
const W = seedWebhookId(0);
/** An ordered subscription whose keys are held all along by heads that wait for a retry. */
const WO = seedWebhookId(1);
const HELD_KEYS = 10;
const SETUP = 'fast-fill-setup';

const today = dayStart(new Date());
const yesterday = new Date(today.getTime() - DAY_MS);
const tomorrow = new Date(today.getTime() + DAY_MS);
/** The partitions of the day before midnight and of the new day (within today's range: the clock is real). */
const beforeMidnight = (table: string) => `${table}_before_midnight`;
const afterMidnight = (table: string) => `${table}_after_midnight`;
const DAY_PARTITIONS = PARTITIONED_TABLES.flatMap((table) => [
  partitionName(table, yesterday),
  beforeMidnight(table),
  afterMidnight(table),
  partitionName(table, tomorrow),
]);

let t: TestContext;
/** A worker's long-lived connection: it runs the sweep from before the load on, with the plans it keeps. */
let worker: Db;
let midnight: Date;
const readsDuringLoad: Array<SequentialRead & { statement: string }> = [];
const since = () => new Date(Date.now() - 30 * DAY_MS);
const page = { limit: 20 };

/** The idle sweeps and the everyday reads. */
const STATEMENTS: Array<[string, (trx: Trx) => Promise<unknown>]> = [
  ['sweep: overdue deliveries', (trx) => sweepSql.findOverdueDeliveries(trx, 10_000, 1000)],
  ['sweep: stranded ordering keys', (trx) => orderingSql.findStrandedOrderingKeys(trx, 0, 1000)],
  [
    'list deliveries, two pages',
    async (trx) => {
      const first = await deliveries.listDeliveries(trx, A, W, page, since());
      return deliveries.listDeliveries(trx, A, W, { ...page, cursor: first.nextCursor ?? undefined }, since());
    },
  ],
  ['list attempts', (trx) => deliveries.listAttempts(trx, A, W, page, since())],
  ['feed', (trx) => listEvents(trx, A, page, since())],
  [
    'endpoint stats',
    async (trx) => [await findStatBuckets(trx, A, W, new Date(Date.now() - 7 * DAY_MS)), await findHealth(trx, A, W)],
  ],
  ['other idle sweeps', runIdleSweeps],
  [
    'MCP events: a poll of the log, filtered and not, and its replay-floor check',
    async (trx) => {
      // The log's reads take a connection's transaction as they take the pool (the barrier is a savepoint here).
      const db = trx as unknown as Db;
      const read = { accountId: A, type: 'message.received', after: { seq: '0', at: 0 }, limit: 100 };
      await readLog(db, { ...read, filter: {}, floor: since() });
      await readLog(db, { ...read, filter: { n: '7' }, floor: since() });
      return skippedBefore(db, { ...read, filter: {}, floor: new Date() });
    },
  ],
];
const SWEEP = STATEMENTS.slice(0, 2);

const readsOf = (db: Db, run: (trx: Trx) => Promise<unknown>) => sequentialReads(db, DAY_PARTITIONS, run);

/** Yesterday, today split at `at` (midnight) and tomorrow, as the maintenance job makes days: empty, unanalyzed. */
async function makeDays(db: Db, at: Date): Promise<void> {
  for (const table of PARTITIONED_TABLES) {
    await db.raw(`DROP TABLE ??`, [partitionName(table, today)]);
    for (const day of [yesterday, tomorrow]) {
      await db.raw(`DROP TABLE IF EXISTS ??`, [partitionName(table, day)]);
      await createDayPartition(db, table, day);
    }
    for (const [name, from, to] of [
      [beforeMidnight(table), today, at],
      [afterMidnight(table), at, tomorrow],
    ] as const) {
      await db.raw(`CREATE TABLE ?? (LIKE ?? INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`, [name, table]);
      // DDL takes no bind parameters; the bounds are ISO strings made here from Dates.
      await db.raw(
        `ALTER TABLE ?? ATTACH PARTITION ?? FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
        [table, name],
      );
    }
  }
}

const attemptOf = (d: ScheduledDelivery, webhookId: string) => failedAttemptOf(d, A, webhookId);
const succeeded = (d: ScheduledDelivery) => ({
  ...attemptOf(d, W),
  responseStatus: 200,
  error: null,
  errorMessage: null,
});
const retriedInAnHour = (d: ScheduledDelivery, webhookId: string) => ({
  ...attemptOf(d, webhookId),
  retryDelayMs: 3600_000,
});

/** The deliveries a commit made, read back by primary key in its own day partition. */
const deliveriesOf = (db: Db, ids: string[], webhookId: string): Promise<ScheduledDelivery[]> =>
  db('webhook_deliveries')
    .select('id', 'created_at', 'job_seq', 'event', 'webhook_id', 'ordering_key')
    .whereIn('id', ids)
    .where({ webhook_id: webhookId })
    .where('created_at', '>=', today);

/** The keys of the ordered subscription, each held by a head that waits for a retry an hour out. */
async function holdOrderingKeys(db: Db): Promise<void> {
  const ids = await transaction(db, async (trx) => {
    const made: string[] = [];
    for (let i = 0; i < HELD_KEYS; i++) {
      const event = { type: 'message.received' as const, payload: { conversationId: `conv_${i}` } };
      made.push(...(await fanOut.insertEventWithDeliveries(trx, A, event)).deliveryIds);
    }
    return made;
  });
  const heads = await deliveriesOf(db, ids, WO);
  await recordSql.recordRetries(
    db,
    heads.map((d) => retriedInAnHour(d, WO)),
  );
}

/** One commit of PER_COMMIT events to the unordered subscription, then the worker's record of their attempts. */
async function commitAndDeliver(db: Db, first: number): Promise<void> {
  const ids = await transaction(db, async (trx) => {
    const made: string[] = [];
    for (let n = first; n < first + PER_COMMIT; n++) {
      const event = { type: 'message.received' as const, payload: { n } };
      made.push(...(await fanOut.insertEventWithDeliveries(trx, A, event, W)).deliveryIds);
    }
    return made;
  });
  const sent = await deliveriesOf(db, ids, W);
  // One in a hundred waits for a retry an hour out; the rest succeed.
  const retried = sent.filter((_d, i) => (first + i) % 100 === 0);
  await recordSql.recordRetries(
    db,
    retried.map((d) => retriedInAnHour(d, W)),
  );
  await recordSql.recordSuccesses(db, sent.filter((d) => !retried.includes(d)).map(succeeded));
}

/**
 * Producers committing events [from, to) at RATE a second at most, until `stop` says so; answers the first event
 * not committed.
 */
async function produce(db: Db, from: number, to: number, stop = async () => false): Promise<number> {
  const started = Date.now();
  let next = from;
  const producer = async () => {
    for (let first = next; first < to && !(await stop()); first = next) {
      next += PER_COMMIT;
      const due = started + ((first - from) / RATE) * 1000;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      await commitAndDeliver(db, first);
    }
  };
  await Promise.all(Array.from({ length: PRODUCERS }, producer));
  return Math.min(next, to);
}

/** The load, half of it before midnight (or as much as a loaded machine commits by then) and the rest after, the sweep running on the worker's connection meanwhile. */
async function load(db: Db): Promise<void> {
  let loading = true;
  const sweeper = async () => {
    while (loading) {
      for (const [statement, run] of SWEEP)
        readsDuringLoad.push(...(await readsOf(worker, run)).map((r) => ({ ...r, statement })));
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const producers = async () => {
    const past = async () => (await db.raw(`SELECT now() >= ? AS past`, [midnight])).rows[0].past as boolean;
    const reached = await produce(db, 0, EVENTS / 2, past);
    await waitUntil(past, MIDNIGHT_AFTER_MS + 60_000, 'midnight', 100);
    await produce(db, reached, EVENTS);
    loading = false;
  };
  await Promise.all([producers(), sweeper()]);
}

/** What Postgres's cumulative counters say was read sequentially of the day partitions. */
async function countedReads(db: Db): Promise<Map<string, SequentialRead>> {
  const { rows } = await db.raw<{ rows: SequentialRead[] }>(
    `SELECT relname, seq_scan::int, seq_tup_read::int FROM pg_stat_user_tables WHERE relname = ANY (?)`,
    [DAY_PARTITIONS],
  );
  return new Map(rows.map((r) => [r.relname, r]));
}

/** Reports the connection's counters now rather than within the next seconds (as it does when it next idles). */
const flushCounters = (db: Db) => db.raw('SELECT pg_stat_force_next_flush()');

beforeAll(async () => {
  t = await createTestContext();
  const { db } = t.deps;
  await seedAccounts(t.deps, 1, 2);
  await db('webhooks').update({ ordering: 'key' }).where({ id: WO });
  // The day's writers (and the DDL that made the day) on connections of their own, gone before the counters
  // are compared: a backend reports what it read when it idles or exits.
  const setup = createDb(t.deps.config.database.url, {
    applicationName: SETUP,
    pool: { min: 1, max: PRODUCERS },
  });
  try {
    const now = (await setup.raw(`SELECT date_trunc('milliseconds', now()) AS now`)).rows[0].now as Date;
    midnight = new Date(now.getTime() + MIDNIGHT_AFTER_MS);
    await makeDays(setup, midnight);
    // The worker's connection runs every statement past its five custom plans while the day is empty.
    worker = createDb(t.deps.config.database.url, { pool: { min: 1, max: 1 } });
    for (const [, run] of STATEMENTS) for (let i = 0; i < 7; i++) await readsOf(worker, run);
    await holdOrderingKeys(setup);
    await load(setup);
  } finally {
    await setup.destroy();
  }
  await waitUntil(
    async () =>
      (
        await db.raw(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?`,
          [SETUP],
        )
      ).rows[0].n === 0,
    30_000,
    "the load's connections closed",
  );
}, 900_000);
afterAll(async () => {
  await worker?.destroy();
  await t?.close();
});

describe('a day filled fast, a new day starting mid-load, nothing analyzed', () => {
  it('the sweep, run all along on the connection that planned it on an empty day, read none whole', () => {
    expect(readsDuringLoad).toEqual([]);
  });

  it("reads none whole by Postgres's cumulative counters, over rounds of idle sweeps and reads", async () => {
    const fresh = createDb(t.deps.config.database.url, { pool: { min: 1, max: 1 } });
    try {
      await Promise.all([flushCounters(worker), flushCounters(fresh)]);
      const before = await countedReads(t.deps.db);
      for (let round = 0; round < 5; round++)
        for (const [, run] of STATEMENTS) for (const db of [worker, fresh]) await readsOf(db, run);
      await Promise.all([flushCounters(worker), flushCounters(fresh)]);
      const after = await countedReads(t.deps.db);
      const read = [...after.values()]
        .map((r) => ({
          relname: r.relname,
          seq_scan: r.seq_scan - (before.get(r.relname)?.seq_scan ?? 0),
          seq_tup_read: r.seq_tup_read - (before.get(r.relname)?.seq_tup_read ?? 0),
        }))
        .filter((r) => r.seq_scan > 0);
      expect(read).toEqual([]);
      expect(after.size).toBe(DAY_PARTITIONS.length);
    } finally {
      await fresh.destroy();
    }
  });

  it("finds none of the held keys stranded: each one's head is pending", async () => {
    expect(await orderingSql.findStrandedOrderingKeys(t.deps.db, 0, 1000)).toEqual([]);
    const n = (await t.deps.db('webhook_ordering_keys').count('* as n').first())?.n;
    expect(Number(n)).toBe(HELD_KEYS);
  });

  it.each(STATEMENTS)('%s: reads none whole, where planned on the empty day and afresh', async (_n, run) => {
    const fresh = createDb(t.deps.config.database.url, { pool: { min: 1, max: 1 } });
    try {
      expect(await readsOf(worker, run)).toEqual([]);
      expect(await readsOf(fresh, run)).toEqual([]);
    } finally {
      await fresh.destroy();
    }
  });

  it('held the rows on both sides of midnight, and no partition had statistics', async () => {
    const { rows } = await t.deps.db.raw(
      `SELECT c.relname, c.reltuples, s.last_analyze, s.last_autoanalyze
         FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.relname = ANY (?)`,
      [[beforeMidnight('webhook_deliveries'), afterMidnight('webhook_deliveries')]],
    );
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r).toMatchObject({ reltuples: -1, last_analyze: null, last_autoanalyze: null });
    const counts = await t.deps
      .db('webhook_deliveries')
      .select(t.deps.db.raw(`created_at < ? AS before`, [midnight]))
      .count('* as n')
      .where('created_at', '>=', today)
      .groupBy('before');
    expect(counts.map((c) => Number(c.n)).reduce((a, b) => a + b, 0)).toBe(EVENTS + 2 * HELD_KEYS);
    // Both sides took rows: the load started before midnight and went on after it.
    expect(counts).toHaveLength(2);
  });
});
