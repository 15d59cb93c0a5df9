import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeps } from '../../src/app/runtime.js';
import * as fanOut from '../../src/delivery/sql/fan-out.js';
import * as recordSql from '../../src/delivery/sql/record.js';
import type { ScheduledDelivery } from '../../src/delivery/sql/rows.js';
import {
  createDayPartition,
  dayStart,
  partitionName,
  PARTITIONED_TABLES,
} from '../../src/maintenance/partitions.repository.js';
import { createDb, type Db } from '../../src/platform/db.js';
import { newSigningKey } from '../../src/webhooks/signing-keys.js';
import { transaction } from '../../src/platform/transaction.js';
import { startWorkers } from '../../workers/index.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { failedAttemptOf, seedAccountId, seedAccounts, seedWebhookId } from '../helpers/seed-traffic.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { waitFor, waitUntil } from '../helpers/wait.js';

// An idle service never reads a day partition whole, whatever the day's statistics and however fast the day filled
// (docs/plans.md#no-statement-of-the-delivery-path-scans-a-day). Each case makes today's partitions afresh, fills them at its
// pace (with an ANALYZE wherever a machine of that pace would have one: none in time for a fast fill, early and
// often for a slow one, the first while most of the day is still pending), then starts a worker process whose real
// job schedulers run every idle job several times and whose sweep sends again what lost its job, and reads
// Postgres's own counters (pg_stat_user_tables) for today's partitions: no sequential scan, no row read by one.
// autovacuum may analyze the day at any moment meanwhile: the rule must hold either way. The workers start after
// the fill, on connections of their own: a backend adds what it read to those counters up to ten seconds later
// (sooner when it exits), so reads of a worker running through the fill could land in the window.

const A = seedAccountId(0);
const W = seedWebhookId(0);
const WORKERS = 'idle-scans-workers';
const FILLER = 'idle-scans-filler';
/** Every idle job, often, so that each runs several times within seconds. */
const SCHEDULES = [
  'relay-outbox=200',
  'sweep-expired-keys=200',
  'requeue-stuck-work=200',
  'maintain-partitions=500',
  'prune-webhook-stats=500',
  'sweep-idempotency-keys=500',
  'sweep-expired-sessions=500',
].join(',');
const IDLE_JOBS = ['relay-outbox', 'sweep-expired-keys', 'maintain-partitions', 'prune-webhook-stats'];

let t: TestContext;
let receiver: Receiver;
const today = dayStart(new Date());
const TODAY = PARTITIONED_TABLES.map((table) => partitionName(table, today));

beforeAll(async () => {
  t = await createTestContext({
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_SWEEP_AFTER_MS: '500',
    SCHEDULE_INTERVALS_MS: SCHEDULES,
  });
  receiver = await startReceiver();
  await seedAccounts(t.deps, 1, 1);
  // The deliveries the sweep schedules again are signed, sent and taken, on this machine.
  await t.deps
    .db('webhooks')
    .update({
      url: `${receiver.url}/hook`,
      secret_sealed: newSigningKey(t.deps.sealers.webhook, 'hmac-sha256').secretSealed,
    })
    .where({ id: W });
}, 300_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

/** Today's partitions, made again: empty and never analyzed, as at midnight. */
async function freshDay(db: Db): Promise<void> {
  for (const table of PARTITIONED_TABLES) {
    await db.raw('DROP TABLE ??', [partitionName(table, today)]);
    await createDayPartition(db, table, today);
  }
}

const analyzeToday = (db: Db) => db.raw(`ANALYZE ${TODAY.map(() => '??').join(', ')}`, TODAY);

/** The deliveries of a commit, by primary key in today's partition. */
const deliveriesOf = (db: Db, ids: string[]): Promise<ScheduledDelivery[]> =>
  db('webhook_deliveries')
    .select('id', 'created_at', 'job_seq', 'event', 'webhook_id', 'ordering_key')
    .whereIn('id', ids)
    .where('created_at', '>=', today);

/** One commit of `n` events, a delivery each, pending and due: what the fan-out writes. */
async function commitEvents(db: Db, first: number, n: number): Promise<ScheduledDelivery[]> {
  const ids = await transaction(db, async (trx) => {
    const made: string[] = [];
    for (let i = first; i < first + n; i++)
      made.push(
        ...(await fanOut.insertEventWithDeliveries(trx, A, { type: 'message.received', payload: { i } })).deliveryIds,
      );
    return made;
  });
  return deliveriesOf(db, ids);
}

/** The worker's record of their attempts: one in a hundred waits an hour for its retry, the rest succeeded. */
async function deliver(db: Db, sent: ScheduledDelivery[], first: number): Promise<void> {
  const attempt = (d: ScheduledDelivery) => failedAttemptOf(d, A, W);
  const retried = sent.filter((_d, i) => (first + i) % 100 === 0);
  await recordSql.recordRetries(
    db,
    retried.map((d) => ({ ...attempt(d), retryDelayMs: 3600_000 })),
  );
  await recordSql.recordSuccesses(
    db,
    sent
      .filter((d) => !retried.includes(d))
      .map((d) => ({ ...attempt(d), responseStatus: 200, error: null, errorMessage: null })),
  );
}

interface Pace {
  events: number;
  perCommit: number;
  producers: number;
  /** After how many commits the day is analyzed (the commit's deliveries still pending), if ever. */
  analyzeEvery?: number;
  /** Between two commits of one producer. */
  pauseMs: number;
  /**
   * Every delivery of the day waits for a retry, all of them overdue at scattered times once the fill is done, and
   * the day is analyzed then: a receiver away for the day, then its retries' jobs lost (Redis restarted empty).
   */
  allOverdue?: boolean;
}

const PACES: Array<[string, Pace]> = [
  ['as fast as it can', { events: 4000, perCommit: 20, producers: 4, pauseMs: 0 }],
  [
    "at a slow machine's pace, analyzed early and often while deliveries wait",
    { events: 600, perCommit: 5, producers: 1, analyzeEvery: 10, pauseMs: 20 },
  ],
  [
    "at a slow machine's pace, then every retry overdue and its job lost",
    { events: 300, perCommit: 5, producers: 1, pauseMs: 10, allOverdue: true },
  ],
  [
    'fast, analyzed once mid-fill with the day pending',
    { events: 3000, perCommit: 50, producers: 2, analyzeEvery: 30, pauseMs: 0 },
  ],
];

async function fill(db: Db, pace: Pace): Promise<ScheduledDelivery[]> {
  let next = 0;
  let commits = 0;
  const producer = async () => {
    for (let first = next; first < pace.events; first = next) {
      next += pace.perCommit;
      const sent = await commitEvents(db, first, pace.perCommit);
      // A day analyzed while this commit's deliveries still wait to be sent: statistics saying much is pending.
      if (pace.analyzeEvery && ++commits % pace.analyzeEvery === 0) await analyzeToday(db);
      if (!pace.allOverdue) await deliver(db, sent, first);
      if (pace.pauseMs) await new Promise((r) => setTimeout(r, pace.pauseMs));
    }
  };
  await Promise.all(Array.from({ length: pace.producers }, producer));
  if (pace.allOverdue) {
    // Time passes in one statement: each retry fell due at its own moment of the last hour.
    await db.raw(`UPDATE ?? SET next_attempt_at = now() - random() * interval '1 hour' WHERE status = 'pending'`, [
      partitionName('webhook_deliveries', today),
    ]);
    await analyzeToday(db);
  }
  // The last few stay overdue with their job gone, as after a lost add: the sweep finds them.
  return commitEvents(db, pace.events, 3);
}

type Read = { relname: string; seq_scan: number; seq_tup_read: number };

const countedReads = async (db: Db): Promise<Map<string, Read>> => {
  const { rows } = await db.raw<{ rows: Read[] }>(
    `SELECT relname, seq_scan::int, seq_tup_read::int FROM pg_stat_user_tables WHERE relname = ANY (?)`,
    [TODAY],
  );
  return new Map(rows.map((r) => [r.relname, r]));
};

const backendsOf = async (db: Db, name: string): Promise<number> =>
  (
    await db.raw(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?`,
      [name],
    )
  ).rows[0].n;

/** How many runs of each idle job the maintenance queue completed since `since` (it keeps the last 100). */
async function idleRunsSince(since: number): Promise<Record<string, number>> {
  const done = await t.deps.queues.maintenance.getJobs(['completed', 'failed'], 0, -1);
  const failed = done.filter((j) => j.failedReason);
  if (failed.length)
    throw new Error(`idle jobs failed: ${failed.map((j) => `${j.name}: ${j.failedReason}`).join('; ')}`);
  const recent = done.filter((j) => (j.processedOn ?? 0) > since);
  return Object.fromEntries(IDLE_JOBS.map((name) => [name, recent.filter((j) => j.name === name).length]));
}

describe('an idle service, after a day filled at any pace', () => {
  it.each(PACES)(
    '%s: no idle job reads a day partition sequentially',
    async (_name, pace) => {
      const { db } = t.deps;
      const filler = createDb(t.deps.config.database.url, {
        applicationName: FILLER,
        pool: { min: 1, max: pace.producers },
      });
      let overdue: ScheduledDelivery[];
      try {
        await freshDay(filler);
        overdue = await fill(filler, pace);
      } finally {
        await filler.destroy();
      }
      // A backend's counts reach pg_stat_user_tables by the time it has exited: the window below counts only what
      // the workers started after the fill read.
      await waitUntil(async () => (await backendsOf(db, FILLER)) === 0, 30_000, "the filler's connections closed");
      const before = await countedReads(db);
      const runtime = await t.createRuntime({ applicationName: WORKERS });
      const workers = await startWorkers(runtime, { schedule: true });
      try {
        const since = Date.now();
        await waitFor(
          () => idleRunsSince(since),
          (runs) => IDLE_JOBS.every((j) => runs[j]! >= 3),
          { timeoutMs: 60_000, what: 'three runs of every idle job' },
        );
        // The sweep found the overdue deliveries and scheduled each under a new job, which sent it.
        const sent = (d: ScheduledDelivery) => receiver.received.some((r) => r.headers['webhook-id'] === d.id);
        await waitUntil(async () => overdue.every(sent), 30_000, 'the overdue deliveries sent again');
      } finally {
        await workers.close();
        await closeDeps(runtime);
      }
      // A backend reports what it read when it exits at the latest.
      await waitUntil(async () => (await backendsOf(db, WORKERS)) === 0, 30_000, "the workers' connections closed");
      const after = await countedReads(db);
      expect(after.size).toBe(TODAY.length);
      const read = [...after.values()]
        .map((r) => ({
          relname: r.relname,
          seq_scan: r.seq_scan - (before.get(r.relname)?.seq_scan ?? 0),
          seq_tup_read: r.seq_tup_read - (before.get(r.relname)?.seq_tup_read ?? 0),
        }))
        .filter((r) => r.seq_scan > 0 || r.seq_tup_read > 0);
      expect(read).toEqual([]);
      const again = await deliveriesOf(
        db,
        overdue.map((d) => d.id),
      );
      expect(again.every((d) => d.job_seq > overdue[0]!.job_seq)).toBe(true);
      receiver.received.length = 0;
    },
    180_000,
  );
});
