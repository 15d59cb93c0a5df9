import { GCProfiler } from 'node:v8';
import { transaction, type Trx } from '../src/platform/transaction.js';
import type { Benchmark } from './run.js';
import { owner } from './webhook-helpers.js';

// One event committed at a time, as an emitting request commits it, for an account with no subscription: the
// event's insert (the fan-out statement, finding no subscription) in the service's transaction
// (src/platform/transaction.ts) against the same insert in a knex transaction (`db.transaction`). Per commit, in
// alternating rounds: this process's node CPU, and what its collector did (young-generation collections, their
// pause, and the bytes they promoted to the old generation).

const N = Number(process.env.BENCH_TRANSACTION_N ?? 5000);
const ROUNDS = 3;

interface Round {
  cpuUs: number;
  scavengesPer1000: number;
  pauseMsPer1000: number;
  promotedBytes: number;
}

export const transactionBenchmark: Benchmark = {
  id: 'transaction',
  name: `transaction: ${N} single-event commits, the service's transaction vs knex's (node CPU, collector)`,
  async run(env) {
    const { deps, close } = await env.createDeps();
    try {
      const { accountId } = await owner(deps, 1);
      const insert = (trx: Trx, n: number) =>
        deps.eventFanOut.insertEventWithDeliveries(
          trx,
          accountId,
          { type: 'message.sent', payload: { n } },
          null,
          null,
        );
      const commits = {
        // knex's transaction has all a Trx has when it runs; only its type leaves isTransaction open.
        knex: (n: number) => deps.db.transaction((trx) => insert(trx as unknown as Trx, n)),
        service: (n: number) => transaction(deps.db, (trx) => insert(trx, n)),
      };
      const rounds: Record<keyof typeof commits, Round[]> = { knex: [], service: [] };
      for (const commit of Object.values(commits)) for (let n = 0; n < 500; n++) await commit(n);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [side, commit] of Object.entries(commits) as Array<[keyof typeof commits, typeof commits.knex]>) {
          const profiler = new GCProfiler();
          profiler.start();
          const before = process.cpuUsage();
          for (let n = 0; n < N; n++) await commit(n);
          const used = process.cpuUsage(before);
          const gcs = profiler.stop()?.statistics.filter((s) => s.gcType === 'Scavenge') ?? [];
          const oldSpace = (s: (typeof gcs)[number]['beforeGC']) =>
            s.heapSpaceStatistics.find((space) => space.spaceName === 'old_space')?.spaceUsedSize ?? 0;
          const promoted = gcs.reduce((sum, s) => sum + oldSpace(s.afterGC) - oldSpace(s.beforeGC), 0);
          rounds[side].push({
            cpuUs: Math.round((used.user + used.system) / N),
            scavengesPer1000: +((gcs.length * 1000) / N).toFixed(1),
            pauseMsPer1000: +(gcs.reduce((sum, s) => sum + s.cost, 0) / 1000 / (N / 1000)).toFixed(1),
            promotedBytes: Math.round(promoted / N),
          });
        }
      }
      const median = (side: keyof typeof commits, figure: keyof Round) =>
        rounds[side].map((r) => r[figure]).sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
      const figures = ['cpuUs', 'scavengesPer1000', 'pauseMsPer1000', 'promotedBytes'] as const;
      return {
        per_commit_median: Object.fromEntries(
          figures.map((f) => [f, { service: median('service', f), knex: median('knex', f) }]),
        ),
        rounds,
      };
    } finally {
      await close();
    }
  },
};
