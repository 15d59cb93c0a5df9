import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/platform/config.js';
import { createLogger } from '../src/platform/logger.js';
import { ensureLocalServices } from '../src/platform/local-services.js';
import { apiPipelineBenchmark } from './api-pipeline.bench.js';
import { authBenchmark } from './auth.bench.js';
import { brokerPublishBenchmark } from './broker-publish.bench.js';
import { partitionsBenchmark } from './partitions.bench.js';
import { scaleBenchmark } from './scale.bench.js';
import { sizingBenchmark } from './sizing.bench.js';
import { enqueueOneBenchmark } from './enqueue-one.bench.js';
import { filtersBenchmark } from './filters.bench.js';
import { footprintBenchmark } from './footprint.bench.js';
import { mcpEventsBenchmark } from './mcp-events.bench.js';
import { orderedBenchmark } from './ordered.bench.js';
import { outboundPostBenchmark } from './outbound-post.bench.js';
import { webhookBudgetBenchmark } from './webhook-budget.bench.js';
import { transactionBenchmark } from './transaction.bench.js';
import { webhooksBenchmark } from './webhooks.bench.js';
import { createBenchEnv, type BenchEnv } from './bench-env.js';
import { describeMachine, writeResult } from './results.js';

// `npm run bench`: runs each benchmark module in turn, prints its figures and keeps them with the command and the
// machine in bench/results/ (bench/results.ts). A benchmark gets a BenchEnv that hands out fresh, migrated
// databases (dropped at the end) the way the tests do; it never touches a database it did not create.

export type { BenchDeps, BenchEnv } from './bench-env.js';

export interface Benchmark {
  /** Short, for its result file: bench/results/<date>-<id>.json. */
  id: string;
  name: string;
  /** Returns the figures to print (ratios, req/s, latencies). */
  run(env: BenchEnv): Promise<Record<string, unknown>>;
}

/** The benchmarks, run sequentially. Add new modules here. */
export const benchmarks: Benchmark[] = [
  authBenchmark,
  webhooksBenchmark,
  webhookBudgetBenchmark,
  enqueueOneBenchmark,
  transactionBenchmark,
  outboundPostBenchmark,
  brokerPublishBenchmark,
  scaleBenchmark,
  sizingBenchmark,
  apiPipelineBenchmark,
  orderedBenchmark,
  partitionsBenchmark,
  footprintBenchmark,
  filtersBenchmark,
  mcpEventsBenchmark,
];

async function main() {
  const base = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const local = await ensureLocalServices(base, createLogger('silent'));
  const runId = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const env = createBenchEnv(local.databaseUrl, local.redisUrl, runId);

  let failed = false;
  try {
    // BENCH_ONLY=auth runs only the benchmarks whose name contains that word.
    const only = process.env.BENCH_ONLY;
    for (const bench of benchmarks.filter((b) => !only || b.name.includes(only))) {
      console.log(`\n== ${bench.name}`);
      try {
        const started = new Date();
        const machine = await describeMachine(local.databaseUrl, local.redisUrl);
        const figures = await bench.run(env);
        for (const [k, v] of Object.entries(figures))
          console.log(`  ${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
        console.log(`  saved: ${writeResult(bench.id, started, machine, figures)}`);
      } catch (err) {
        failed = true;
        console.error(`  failed: ${(err as Error).stack ?? String(err)}`);
      }
    }
  } finally {
    await env.dropAll();
    await local.stop();
  }
  process.exit(failed ? 1 : 0);
}

await main();
