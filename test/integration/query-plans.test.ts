import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEvents } from '../../src/events/events.repository.js';
import { clearEndedGraces, claimKeysToWarn, expireDueKeys } from '../../src/keys/keys-sweep.repository.js';
import { deleteExpiredSessions } from '../../src/accounts/sessions.repository.js';
import {
  dayStart,
  hasPendingDeliveries,
  listPartitions,
  partitionName,
} from '../../src/maintenance/partitions.repository.js';
import { DAY_MS } from '../../src/maintenance/retention.js';
import type { Trx } from '../../src/platform/transaction.js';
import * as fanOut from '../../src/delivery/sql/fan-out.js';
import * as loadSql from '../../src/delivery/sql/load.js';
import * as recordSql from '../../src/delivery/sql/record.js';
import * as deliveries from '../../src/webhooks/deliveries.repository.js';
import * as rows from '../../src/delivery/sql/rows.js';
import * as sweep from '../../src/delivery/sql/sweep.js';
import { findStrandedOrderingKeys } from '../../src/delivery/sql/ordering-keys.js';
import {
  addStats,
  findHealth,
  findStatBuckets,
  pruneStatBuckets,
} from '../../src/webhooks/endpoint-stats.repository.js';
import { deleteExpiredKeys } from '../../src/idempotency/idempotency.repository.js';
import { captureStatements, explain, scannedRelations, type Captured } from '../helpers/explain.js';
import {
  seedAccountId,
  seedAccountSql,
  seedTraffic,
  seedWebhookId,
  seedWebhookSql,
  failedAttemptOf,
} from '../helpers/seed-traffic.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Every hot statement (request path, delivery path, sweeps) stays on an index when its tables are large: a million
// events, deliveries and attempts over twenty days of partitions (seeded `quick`, without WAL or per-row foreign key
// checks: plans do not depend on either), 300k stat buckets, 200k keys. Each statement is captured from the service
// code as it runs and explained the way Postgres runs it (custom plan; generic plan too for the named prepared
// statements). A new statement on a large table belongs in HOT.

const N = 1_000_000;
/** Relations with more rows than this count as large (an empty day ahead may well be scanned). */
const LARGE_ROWS = 10_000;
let large: Set<string>;

let t: TestContext;
let explainer: pg.Client;
let ref: { pending: rows.ScheduledDelivery; succeeded: rows.ScheduledDelivery; eventId: string; partition: string };
const A = seedAccountId(7);
const W = seedWebhookId(7);
const since = () => new Date(Date.now() - 30 * DAY_MS);

async function seed(): Promise<void> {
  const db = t.deps.db;
  // Twenty days of traffic; event g goes to webhook g % 1000 of account g % 200 (the same account); 1% pending
  // (waiting for a retry an hour out), 2% failed or exhausted, the rest succeeded.
  const to = new Date(Date.now() - 3600_000);
  await seedTraffic(t.deps, {
    rows: N,
    from: new Date(to.getTime() - 20 * DAY_MS),
    to,
    accounts: 200,
    webhooks: 1000,
    payload: 'tiny',
    quick: true,
    analyze: false, // the whole database is analyzed below
  });
  await db.raw(`INSERT INTO webhook_stats (webhook_id, account_id, bucket_start, attempts, successes, by_error, by_status, durations)
    SELECT ${seedWebhookSql('w')}, ${seedAccountSql('w % 200')}, date_trunc('hour', now()) - b * interval '5 minutes', 10, 9, '{}', '{}', '{}'
      FROM generate_series(0, 999) w, generate_series(0, 299) b`);
  await db.raw(`INSERT INTO api_keys (id, account_id, name, key_type, key_prefix, scopes, secret_hash, expires_at)
    SELECT 'key_seed' || k, ${seedAccountSql('k % 200')}, 'k', 'account', 'ca_acct_', '{read:agents}', md5(k::text),
           CASE WHEN k % 50 = 0 THEN now() + (k % 90) * interval '1 day' END
      FROM generate_series(1, 200000) k`);
  await db.raw('ANALYZE');
  const { rows } = await db.raw(`SELECT relname FROM pg_class WHERE relkind = 'r' AND reltuples > ?`, [LARGE_ROWS]);
  large = new Set(rows.map((r: { relname: string }) => r.relname));
}

beforeAll(async () => {
  t = await createTestContext();
  await seed();
  const pick = async (status: string) =>
    (await t.deps
      .db('webhook_deliveries')
      .select('id', 'created_at', 'job_seq', 'event_id')
      .where({ account_id: A, webhook_id: W, status })
      .orderBy('created_at', 'desc')
      .first())!;
  const pending = await pick('pending');
  const succeeded = await pick('succeeded');
  const partition = (await listPartitions(t.deps.db, 'webhook_deliveries')).at(-16)!.name;
  ref = { pending, succeeded, eventId: pending.event_id, partition };
  explainer = new pg.Client({ connectionString: t.deps.config.database.url });
  await explainer.connect();
}, 900_000);
afterAll(async () => {
  await explainer?.end();
  await t?.close();
});

const record = (d: rows.ScheduledDelivery) => failedAttemptOf(d, A, W);
const page = { limit: 20 };

/** The statements that must stay on an index at scale. Add every new statement on a large table here. */
const HOT: Array<[string, (trx: Trx) => Promise<unknown>]> = [
  [
    'fan-out: event and its deliveries',
    (trx) => fanOut.insertEventWithDeliveries(trx, A, { type: 'message.received', payload: {} }),
  ],
  ['fan-out job: pending deliveries of an event', (trx) => fanOut.findPendingDeliveriesOfEvent(trx, ref.eventId)],
  ['worker: load send contexts', (trx) => loadSql.loadSendContexts(trx, [ref.pending.id, ref.succeeded.id])],
  ['worker: record successes', (trx) => recordSql.recordSuccesses(trx, [record(ref.pending)])],
  ['worker: record retries', (trx) => recordSql.recordRetries(trx, [record(ref.pending)])],
  ['worker: record exhaustions', (trx) => recordSql.recordExhaustions(trx, [record(ref.pending)])],
  ['worker: record 410 gone', (trx) => recordSql.recordGone(trx, [record(ref.pending)])],
  ['worker: stop a delivery', (trx) => recordSql.stopDelivery(trx, A, ref.pending, ref.pending.job_seq)],
  [
    'worker: health figures',
    (trx) =>
      addStats(
        trx,
        [
          {
            webhookId: W,
            accountId: A,
            bucketStart: Date.now() - (Date.now() % 300_000),
            attempts: 1,
            successes: 1,
            byError: {},
            byStatus: {},
            durations: {},
          },
        ],
        [{ webhookId: W, accountId: A, failuresSince: 0, lastSuccessAt: Date.now(), lastFailureAt: null }],
      ),
  ],
  ['sweep: overdue deliveries', (trx) => sweep.findOverdueDeliveries(trx, 10_000, 1000)],
  ['sweep: schedule again', (trx) => sweep.bumpDeliveryJobSeqs(trx, [ref.pending])],
  ['sweep: stranded ordering keys', (trx) => findStrandedOrderingKeys(trx, 0, 1000)],
  ['redeliver: find the delivery', (trx) => deliveries.findDelivery(trx, A, W, ref.succeeded.id, since())],
  ['redeliver: reopen', (trx) => deliveries.reopenDelivery(trx, A, ref.succeeded)],
  ['redeliver: hasten', (trx) => deliveries.hastenDelivery(trx, A, ref.pending)],
  ['enable: recoverSince', (trx) => deliveries.reopenFailedDeliveries(trx, A, W, new Date(Date.now() - 3 * DAY_MS))],
  [
    'list deliveries, two pages',
    async (trx) => {
      const first = await deliveries.listDeliveries(trx, A, W, page, since());
      return deliveries.listDeliveries(trx, A, W, { ...page, cursor: first.nextCursor! }, since());
    },
  ],
  ['list attempts', (trx) => deliveries.listAttempts(trx, A, W, page, since())],
  ['list attempts of one delivery', (trx) => deliveries.listAttempts(trx, A, W, page, since(), ref.succeeded.id)],
  ['feed', (trx) => listEvents(trx, A, page, since())],
  [
    'endpoint stats',
    async (trx) => [await findStatBuckets(trx, A, W, new Date(Date.now() - 7 * DAY_MS)), await findHealth(trx, A, W)],
  ],
  ['stats prune sweep', (trx) => pruneStatBuckets(trx, new Date(Date.now() - 8 * DAY_MS), 1000)],
  ['retention: pending deliveries of a day', (trx) => hasPendingDeliveries(trx, ref.partition)],
  [
    'key expiry sweep',
    async (trx) => [
      await expireDueKeys(trx, new Date(), 500),
      await clearEndedGraces(trx, new Date(), 500),
      await claimKeysToWarn(trx, new Date(), new Date(Date.now() + 7 * DAY_MS), 500),
    ],
  ],
  [
    'session and idempotency sweeps',
    async (trx) => [await deleteExpiredSessions(trx, new Date()), await deleteExpiredKeys(trx, 1000)],
  ],
];

describe('query plans at scale', () => {
  it.each(HOT)('%s: no sequential scan of a large table, custom or generic', async (_name, run) => {
    const statements = await captureStatements(t.deps.db, run);
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) {
      const { custom, generic } = await explain(explainer, s);
      const seq = [...custom, ...(generic ?? [])].filter((n) => n.nodeType === 'Seq Scan' && large.has(n.relation));
      expect(seq, s.sql).toEqual([]);
    }
  });

  it('reads one day of deliveries and of events when it loads a delivery by id', async () => {
    expect(large.size).toBeGreaterThan(20);
    const [load] = await captureStatements(t.deps.db, (trx) => loadSql.loadSendContexts(trx, [ref.pending.id]));
    // The day is chosen at run time (the id comes in an array), so only EXPLAIN ANALYZE shows what was read.
    const read = await scannedRelations(explainer, load!);
    expect(read.filter((r) => r.startsWith('webhook_deliveries_d'))).toHaveLength(1);
    expect(read.filter((r) => r.startsWith('events_d'))).toHaveLength(1);
  });

  it("starts scans of the batch's own day partitions only, in the load's and the records' generic plans", async () => {
    const statements = await captureStatements(t.deps.db, async (trx) => [
      await loadSql.loadSendContexts(trx, [ref.pending.id]),
      await recordSql.recordSuccesses(trx, [record(ref.pending)]),
      await recordSql.recordRetries(trx, [record(ref.pending)]),
    ]);
    expect(statements).toHaveLength(3);
    const day = dayStart(ref.pending.created_at);
    // The plan Postgres keeps for a named statement; its day partitions are pruned as it starts, before any row.
    const started = async (s: Captured, table: 'webhook_deliveries' | 'events') =>
      (await explain(explainer, s)).generic!.map((n) => n.relation).filter((r) => r.startsWith(`${table}_d`));
    const [load, ...records] = statements;
    expect(await started(load!, 'webhook_deliveries')).toEqual([partitionName('webhook_deliveries', day)]);
    expect(await started(load!, 'events')).toEqual([partitionName('events', day)]);
    for (const r of records)
      expect(await started(r, 'webhook_deliveries'), r.sql).toEqual([partitionName('webhook_deliveries', day)]);
  });
});
