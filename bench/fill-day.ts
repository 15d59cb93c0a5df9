import { dayStart, partitionName } from '../src/maintenance/partitions.repository.js';
import { maintainPartitions } from '../src/maintenance/partitions.service.js';
import type { Deps } from '../src/app/deps.js';
import type { Db } from '../src/platform/db.js';
import { sweepOverdueDeliveries } from '../src/delivery/sweep.js';
import { seedTraffic } from '../test/helpers/seed-traffic.js';
import { percentile } from './webhook-helpers.js';
import { transaction } from '../src/platform/transaction.js';

// (e) Today's partition right after a fast fill (docs/plans.md): BENCH_SCALE_FILL_ROWS events,
// deliveries and attempts written into today within the last hour, with no ANALYZE (autovacuum is given no time
// to run), after the sweep already ran on the pool's connections while today was empty. The sweep as
// the relay-outbox job runs it (nothing due), FILL_SWEEPS times before today's first analyze and as many after
// the maintenance job's analyze: its duration, and the rows it read from today's deliveries partition.

const FILL_ROWS = Number(process.env.BENCH_SCALE_FILL_ROWS ?? 500_000);
const FILL_SWEEPS = Number(process.env.BENCH_SCALE_FILL_SWEEPS ?? 100);

/** The relay-outbox job's cutoff: due more than WEBHOOK_SWEEP_AFTER_MS ago. */

interface Reads {
  seq_scan: number;
  seq_tup_read: number;
  idx_tup_fetch: number;
}

/** One sweep in a transaction whose own counters say what it read of `partition`. */
async function sweepOnce(deps: Deps, partition: string): Promise<{ ms: number; rowsRead: number; seqScans: number }> {
  return transaction(deps.db, async (trx) => {
    const reads = async (): Promise<Reads> => {
      const { rows } = await trx.raw(
        `SELECT seq_scan, seq_tup_read, coalesce(idx_tup_fetch, 0) AS idx_tup_fetch
           FROM pg_stat_xact_user_tables WHERE relname = ?`,
        [partition],
      );
      return rows[0] ?? { seq_scan: 0, seq_tup_read: 0, idx_tup_fetch: 0 };
    };
    const before = await reads();
    const started = performance.now();
    // The relay sends its statements on deps.db: given this transaction as its pool, what it reads counts in this
    // transaction's counters (a transaction it opened there would be a savepoint of this one).
    const inTrx = { ...deps, db: trx as unknown as Db };
    const result = await sweepOverdueDeliveries(inTrx, deps.config.webhooks.sweepAfterMs, 1000, 20);
    const ms = performance.now() - started;
    const after = await reads();
    if (result.overdue) throw new Error(`the sweep found ${result.overdue} overdue deliveries; none is due`);
    const rowsRead = after.seq_tup_read - before.seq_tup_read + after.idx_tup_fetch - before.idx_tup_fetch;
    return { ms, rowsRead, seqScans: after.seq_scan - before.seq_scan };
  });
}

async function sweeps(deps: Deps, partition: string) {
  const runs = [];
  for (let i = 0; i < FILL_SWEEPS; i++) runs.push(await sweepOnce(deps, partition));
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
  return {
    runs: runs.length,
    medianMs: +percentile(ms, 50).toFixed(2),
    p99Ms: +percentile(ms, 99).toFixed(2),
    rowsReadPerSweep: Math.max(...runs.map((r) => r.rowsRead)),
    seqScansOfToday: runs.reduce((n, r) => n + r.seqScans, 0),
  };
}

export async function relaySweepAfterFastFill(deps: Deps) {
  const today = dayStart(new Date());
  const partition = partitionName('webhook_deliveries', today);
  // The pool's connections make their plans (and, past five runs, their generic plans) while today is empty.
  for (let i = 0; i < 20; i++) await sweepOverdueDeliveries(deps, deps.config.webhooks.sweepAfterMs, 1000, 20);
  const to = new Date();
  const from = new Date(Math.max(today.getTime(), to.getTime() - 3600_000));
  const started = performance.now();
  await seedTraffic(deps, { rows: FILL_ROWS, from, to, accounts: 100, webhooks: 1000, analyze: false });
  const fillSeconds = +((performance.now() - started) / 1000).toFixed(1);
  const beforeAnalyze = await sweeps(deps, partition);
  const analyzing = performance.now();
  const maintenance = await maintainPartitions(deps);
  const analyzeMs = Math.round(performance.now() - analyzing);
  const afterAnalyze = await sweeps(deps, partition);
  const analyzed = { ms: analyzeMs, partitions: maintenance.analyzed };
  return { rows: FILL_ROWS, fillSeconds, beforeAnalyze, afterAnalyze, analyzed };
}
