import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig, type Env } from '../src/platform/config.js';
import { adminQuery, createDb, ensureDatabase, migrateLatest } from '../src/platform/db.js';
import type { Deps } from '../src/app/deps.js';
import { createDeps } from '../src/app/runtime.js';
import { createLogger } from '../src/platform/logger.js';
import { ensureLocalServices } from '../src/platform/local-services.js';
import { createQueues } from '../src/platform/queues.js';
import { createApiRedis } from '../src/platform/redis.js';
import { apiPipelineBenchmark } from './api-pipeline.bench.js';
import { authBenchmark } from './auth.bench.js';
import { scaleBenchmark } from './scale.bench.js';
import { sizingBenchmark } from './sizing.bench.js';
import { webhooksBenchmark } from './webhooks.bench.js';

// `npm run bench`: runs each benchmark module in turn and prints its figures. A benchmark gets a BenchEnv
// that hands out fresh, migrated databases (dropped at the end) the way the tests do; it never touches
// a database it did not create.

export interface BenchDeps {
  deps: Deps;
  close(): Promise<void>;
}

export interface BenchEnv {
  /** A new migrated database with its own BullMQ prefix, plus Redis; close() drops it. */
  createDeps(env?: Env): Promise<BenchDeps>;
}

export interface Benchmark {
  name: string;
  /** Returns the figures to print (ratios, req/s, latencies). */
  run(env: BenchEnv): Promise<Record<string, unknown>>;
}

/** The benchmarks, run sequentially. Add new modules here. */
export const benchmarks: Benchmark[] = [
  authBenchmark, webhooksBenchmark, scaleBenchmark, sizingBenchmark, apiPipelineBenchmark,
];

async function main() {
  const base = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const local = await ensureLocalServices(base, createLogger('silent'));
  const runId = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const created: string[] = [];

  const env: BenchEnv = {
    async createDeps(overrides = {}) {
      const name = `sbb_${runId}_${created.length}`;
      const url = new URL(local.databaseUrl);
      url.pathname = `/${name}`;
      await ensureDatabase(url.toString());
      created.push(name);
      const config = loadConfig({
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: url.toString(),
        REDIS_URL: local.redisUrl,
        BULLMQ_PREFIX: `sbb-${runId}-${created.length}`,
        ...overrides,
      });
      const db = createDb(config.database.url, { pool: { min: 2, max: 10 } });
      await migrateLatest(db);
      const redis = createApiRedis(config.redis.url);
      redis.on('error', () => undefined);
      const queues = createQueues(redis, config.bullmqPrefix, () => undefined);
      const deps: Deps = createDeps({ config, db, redis, queues, logger: createLogger('silent') });
      return {
        deps,
        async close() {
          await queues.close();
          await deps.http.close();
          const keys = await redis.keys(`${config.bullmqPrefix}:*`);
          if (keys.length) await redis.del(...keys);
          redis.disconnect();
          await db.destroy();
        },
      };
    },
  };

  let failed = false;
  try {
    // BENCH_ONLY=auth runs only the benchmarks whose name contains that word.
    const only = process.env.BENCH_ONLY;
    for (const bench of benchmarks.filter((b) => !only || b.name.includes(only))) {
      console.log(`\n== ${bench.name}`);
      try {
        const figures = await bench.run(env);
        for (const [k, v] of Object.entries(figures)) console.log(`  ${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
      } catch (err) {
        failed = true;
        console.error(`  failed: ${(err as Error).stack ?? String(err)}`);
      }
    }
  } finally {
    for (const name of created) await adminQuery(local.databaseUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await local.stop();
  }
  process.exit(failed ? 1 : 0);
}

await main();
