import { listPartitions } from '../src/maintenance/partitions.repository.js';
import { maintainPartitions } from '../src/maintenance/partitions.service.js';
import { DAY_MS } from '../src/maintenance/retention.js';
import { createDb, type Db } from '../src/platform/db.js';
import type { Deps } from '../src/app/deps.js';
import { sweepOverdueDeliveries } from '../src/delivery/sweep.js';
import { startReceiver, type Receiver } from '../test/helpers/receiver.js';
import { seedTraffic } from '../test/helpers/seed-traffic.js';
import { relaySweepAfterFastFill } from './fill-day.js';
import type { Benchmark } from './run.js';
import { retainedTraffic, tableSizes } from './table-sizes.js';
import { commitToArrival, endToEnd, percentile, spawnWorkerProcess, WEBHOOK_ENV } from './webhook-helpers.js';

// Scale (docs/scaling.md): N events, N deliveries and N attempts (BENCH_SCALE_ROWS, 5,000,000 by default) over the
// retention's day partitions and three days more (WEBHOOK_RETENTION_DAYS + 3 days, to be expired one by one), then:
//   (a) event commit rate and delivery throughput on those tables vs on empty ones (a second fresh database),
//       rounds alternating between the two;                                                    goal >= 0.9 x
//   (b) commit → arrival p99 at a steady rate (an eighth of (a)'s) while a retention pass drops an expired day, vs
//       the same load without it (the mean of the windows just before and just after); three passes, one day
//       each, and the median of their ratios;                                                  goal <= 1.5 x
//   (c) the sweep's duration with N rows and nothing due, over 200 runs;                goal p99 <= 5 ms
//   (d) for comparison, the next day (the oldest left, a retained one of the same size) removed with batched DELETEs of 10,000 rows
//       per statement, attempts, deliveries then events, under the same load: its time and p99.
//   (e) the sweep right after a fast fill of today's partition, before and after its first analyze (fill-day.ts);
//       on a database of its own. BENCH_SCALE_ONLY=fill runs (e) alone.
// Also bytes per row of each table, indexes included, at N rows.

const ROWS = Number(process.env.BENCH_SCALE_ROWS ?? 5_000_000);
const N = Number(process.env.BENCH_SCALE_N ?? 6000);
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 3);
const SWEEPS = Number(process.env.BENCH_SCALE_SWEEPS ?? 200);
const DELETE_BATCH = Number(process.env.BENCH_SCALE_DELETE_BATCH ?? 10_000);
const WINDOW_S = Number(process.env.BENCH_SCALE_WINDOW_S ?? 6);
/** Retention passes in (b), each dropping one day. */
const PASSES = 3;

const log = (msg: string) =>
  process.env.BENCH_SCALE_VERBOSE && console.log(`  ${new Date().toISOString().slice(11, 19)} ${msg}`);
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const ratio = (a: number, b: number) => +(a / b).toFixed(2);

/** Seeds ROWS rows per table over [today - (retention + PASSES) days, now): the oldest PASSES days expire one by one. */
async function seed(deps: Deps) {
  const traffic = retainedTraffic(ROWS, deps.config.webhooks.retentionDays + PASSES);
  const { from, to } = traffic;
  const started = performance.now();
  let days = 0;
  await seedTraffic(deps, {
    ...traffic,
    onDay: (day, ms) => {
      days += 1;
      log(`seeded ${day.toISOString().slice(0, 10)} in ${Math.round(ms)} ms`);
    },
  });
  const seconds = Math.round((performance.now() - started) / 1000);
  // A year-old database's past days are vacuumed long ago; freshly written ones are not, and autovacuum would visit
  // every seeded partition during the rounds below, costing the large database CPU that the empty one never pays.
  const vacuumStarted = performance.now();
  await deps.db.raw('VACUUM (ANALYZE) events, webhook_deliveries, webhook_attempts');
  const vacuumSeconds = Math.round((performance.now() - vacuumStarted) / 1000);
  return { seconds, vacuumSeconds, days, from: from.toISOString(), to: to.toISOString() };
}

/** (c) the sweep as the relay-outbox job runs it, `SWEEPS` times. */
async function relaySweep(deps: Deps) {
  const times: number[] = [];
  for (let i = 0; i < SWEEPS + 10; i++) {
    const started = performance.now();
    const result = await sweepOverdueDeliveries(deps, deps.config.webhooks.sweepAfterMs, 1000, 20);
    if (i >= 10) times.push(performance.now() - started);
    if (result.overdue) throw new Error(`the sweep found ${result.overdue} overdue deliveries; nothing should be due`);
  }
  const sorted = times.sort((a, b) => a - b);
  return {
    runs: sorted.length,
    medianMs: +percentile(sorted, 50).toFixed(2),
    p99Ms: +percentile(sorted, 99).toFixed(2),
    maxMs: +sorted[sorted.length - 1]!.toFixed(2),
  };
}

/** The oldest day partition of webhook_deliveries (after the retention pass: the oldest day retained). */
async function oldestDay(db: Db): Promise<Date> {
  return (await listPartitions(db, 'webhook_deliveries'))[0]!.day;
}

/** (d) one day removed the way an unpartitioned table would have to be: DELETE … LIMIT-sized batches by key. */
async function deleteDayInBatches(db: Db, day: Date) {
  const range = [day.toISOString(), new Date(day.getTime() + DAY_MS).toISOString()];
  let statements = 0;
  let rows = 0;
  let slowestMs = 0;
  // Attempts and deliveries first, events last, as the retention pass orders its drops.
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'events']) {
    const idType = table === 'webhook_deliveries' ? 'uuid' : 'text';
    let after: string | null = null;
    for (;;) {
      const started = performance.now();
      const {
        rows: [batch],
      } = await db.raw(
        `WITH batch AS (
           SELECT id, created_at FROM ?? WHERE created_at >= ?::timestamptz AND created_at < ?::timestamptz AND (?::${idType} IS NULL OR id > ?::${idType})
            ORDER BY id LIMIT ${DELETE_BATCH}
         ), deleted AS (
           DELETE FROM ?? t USING batch WHERE t.id = batch.id AND t.created_at = batch.created_at RETURNING 1
         )
         SELECT (SELECT count(*) FROM deleted) AS n, (SELECT id::text FROM batch ORDER BY id DESC LIMIT 1) AS last`,
        [table, ...range, after, after, table],
      );
      slowestMs = Math.max(slowestMs, performance.now() - started);
      statements += 1;
      rows += Number(batch.n);
      if (Number(batch.n) < DELETE_BATCH) break;
      after = batch.last as string;
    }
  }
  return { rows, statements, slowestStatementMs: Math.round(slowestMs) };
}

type Window = Awaited<ReturnType<typeof commitToArrival>>;

/**
 * (b) and (d): commit → arrival windows at `rate`: PASSES retention passes, each dropping one expired day, then
 * the batched DELETEs of one day, each between two windows without. A pass is maintainPartitions as the
 * maintain-partitions job runs it, with the retention set one day shorter each time (retention + PASSES - 1 …
 * retention), so that each pass finds exactly one expired day: the oldest seeded.
 */
async function underLoad(deps: Deps, receiver: Receiver, rate: number) {
  const worker = await spawnWorkerProcess(deps);
  // The retention pass runs in a worker process in production, on that process's pool: here on a pool of its own,
  // so that it neither waits behind nor takes connections from the commits of the load.
  const maintenanceDb = createDb(deps.config.database.url, { pool: { min: 1, max: 2 } });
  const window = async (what: string, during?: () => Promise<unknown>) => {
    const result = await commitToArrival(deps, receiver, rate, { seconds: WINDOW_S, during, duringAfterMs: 1000 });
    log(`${what}: ${JSON.stringify(result)}`);
    return result;
  };
  try {
    const without: Window[] = [await window('without')];
    const passes: Array<{ window: Window; result: Awaited<ReturnType<typeof maintainPartitions>> }> = [];
    for (let k = PASSES - 1; k >= 0; k--) {
      const retentionDays = deps.config.webhooks.retentionDays + k;
      let result: Awaited<ReturnType<typeof maintainPartitions>> | undefined;
      const w = await window(`retention pass (${retentionDays} days)`, async () => {
        result = await maintainPartitions({
          ...deps,
          db: maintenanceDb,
          config: { ...deps.config, webhooks: { ...deps.config.webhooks, retentionDays } },
        });
      });
      passes.push({ window: w, result: result! });
      without.push(await window('without'));
    }
    const day = await oldestDay(deps.db);
    let deleted: Awaited<ReturnType<typeof deleteDayInBatches>> | undefined;
    const withDeletes = await window('batched deletes', async () => {
      deleted = await deleteDayInBatches(maintenanceDb, day);
    });
    without.push(await window('without'));
    return { without, passes, withDeletes, deleted: { day: day.toISOString().slice(0, 10), ...deleted! } };
  } finally {
    worker.kill('SIGKILL');
    await maintenanceDb.destroy();
  }
}

export const scaleBenchmark: Benchmark = {
  id: 'scale',
  name: `scale: ${ROWS} events, deliveries and attempts over the retention's days vs empty tables; retention under load; sweep`,
  async run(env) {
    const fill = await env.createDeps(WEBHOOK_ENV);
    let e: Awaited<ReturnType<typeof relaySweepAfterFastFill>>;
    try {
      e = await relaySweepAfterFastFill(fill.deps);
    } finally {
      await fill.close();
    }
    if (process.env.BENCH_SCALE_ONLY === 'fill') return { e_relay_sweep_after_fast_fill: e };
    const large = await env.createDeps(WEBHOOK_ENV);
    const empty = await env.createDeps(WEBHOOK_ENV);
    const receiver = await startReceiver();
    try {
      const seeded = await seed(large.deps);
      const sizes = await tableSizes(large.deps.db, ROWS);
      log(`seeded: ${JSON.stringify(seeded)} ${JSON.stringify(sizes)}`);

      // (a) a warm-up round on each, then rounds alternating between the two databases; medians compared.
      await endToEnd(large.deps, receiver, Math.round(N / 6));
      await endToEnd(empty.deps, receiver, Math.round(N / 6));
      const rounds = {
        large: [] as Array<{ drainPerS: number; commitMs: number }>,
        empty: [] as Array<{ drainPerS: number; commitMs: number }>,
      };
      for (let r = 0; r < ROUNDS; r++) {
        rounds.large.push(await endToEnd(large.deps, receiver, N));
        rounds.empty.push(await endToEnd(empty.deps, receiver, N));
        log(`round ${r}: large ${JSON.stringify(rounds.large.at(-1))} empty ${JSON.stringify(rounds.empty.at(-1))}`);
      }
      const commitPerS = (xs: Array<{ commitMs: number }>) =>
        Math.round(median(xs.map((x) => N / (x.commitMs / 1000))));
      const drainPerS = (xs: Array<{ drainPerS: number }>) => Math.round(median(xs.map((x) => x.drainPerS)));
      const a = {
        large: { commitEventsPerS: commitPerS(rounds.large), deliveriesPerS: drainPerS(rounds.large) },
        empty: { commitEventsPerS: commitPerS(rounds.empty), deliveriesPerS: drainPerS(rounds.empty) },
        rounds: {
          large: rounds.large.map((x) => [Math.round(N / (x.commitMs / 1000)), Math.round(x.drainPerS)]),
          empty: rounds.empty.map((x) => [Math.round(N / (x.commitMs / 1000)), Math.round(x.drainPerS)]),
        },
      };
      const aCommit = ratio(a.large.commitEventsPerS, a.empty.commitEventsPerS);
      const aDrain = ratio(a.large.deliveriesPerS, a.empty.deliveriesPerS);

      // (c) before (b) and (d) change the tables: N rows, nothing due.
      const c = await relaySweep(large.deps);
      const cEmpty = await relaySweep(empty.deps);
      log(`sweep: ${JSON.stringify(c)} empty ${JSON.stringify(cEmpty)}`);

      // (b) and (d) at an eighth of (a)'s delivery rate on the large tables: one event per transaction costs far more
      // than (a)'s batches, and this steady load must stay well below what the shared machine sustains, so that
      // the windows measure the removal and not a backlog.
      const rate = Number(process.env.BENCH_SCALE_RATE ?? a.large.deliveriesPerS / 8);
      const load = await underLoad(large.deps, receiver, rate);
      const p99s = load.without.map((w) => w.p99Ms);
      // Each pass against the mean of the windows just before and just after it; the median of those ratios.
      const passRatios = load.passes.map((p, i) => ratio(p.window.p99Ms, (p99s[i]! + p99s[i + 1]!) / 2));
      const bRatio = median(passRatios);
      const dRatio = ratio(load.withDeletes.p99Ms, (p99s[PASSES]! + p99s[PASSES + 1]!) / 2);
      const passMs = load.passes.map((p) => p.window.duringMs ?? 0);

      return {
        seeded: { rowsPerTable: ROWS, ...seeded },
        bytes_per_row_with_indexes: sizes,
        a_large_over_empty_commit: aCommit,
        a_large_over_empty_deliveries: aDrain,
        a_figures: a,
        b_retention_p99_over_without: bRatio,
        b_each_pass_ratio: passRatios,
        b_p99_ms: { without: p99s.slice(0, PASSES + 1), with_retention: load.passes.map((p) => p.window.p99Ms) },
        b_retention_passes: load.passes.map((p) => ({
          ms: p.window.duringMs,
          dropped: p.result.dropped,
          keptForPending: p.result.keptForPending,
        })),
        c_relay_sweep_nothing_due: c,
        c_relay_sweep_empty_tables: cEmpty,
        d_batched_delete_p99_over_without: dRatio,
        d_batched_delete: {
          ms: load.withDeletes.duringMs,
          ...load.deleted,
          p99Ms: load.withDeletes.p99Ms,
          withoutP99Ms: p99s.slice(PASSES),
        },
        e_relay_sweep_after_fast_fill: e,
        d_over_b_time: load.withDeletes.duringMs ? Math.round(load.withDeletes.duringMs / median(passMs)) : null,
        windows: { without: load.without, passes: load.passes.map((p) => p.window), withDeletes: load.withDeletes },
        goals: {
          a_commit_ge_0_9: aCommit >= 0.9,
          a_deliveries_ge_0_9: aDrain >= 0.9,
          b_le_1_5: bRatio <= 1.5,
          c_p99_le_5ms: c.p99Ms <= 5,
          b_each_pass_dropped_one_day: load.passes.every((p) => p.result.dropped.length === 3),
        },
        settings: {
          rows: ROWS,
          deliveriesPerRound: N,
          rounds: ROUNDS,
          rate: Math.round(rate),
          windowS: WINDOW_S,
          deleteBatch: DELETE_BATCH,
          retentionDays: large.deps.config.webhooks.retentionDays,
        },
      };
    } finally {
      await receiver.close();
      await large.close();
      await empty.close();
    }
  },
};
