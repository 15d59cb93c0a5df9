import pg from 'pg';
import { loadConfig, type Env } from '../src/platform/config.js';
import { adminQuery, createDb, ensureDatabase, migrateLatest } from '../src/platform/db.js';
import type { Deps } from '../src/app/deps.js';
import { closeDeps, createDeps } from '../src/app/runtime.js';
import { createLogger } from '../src/platform/logger.js';
import { createQueues } from '../src/platform/queues.js';
import { createApiRedis, whenRedisReady } from '../src/platform/redis.js';

// The databases a benchmark works on: fresh and migrated, each with its own BullMQ prefix, on the Postgres and
// Redis it is given (the shared ones for `npm run bench`, private servers for the webhook budget).

export interface BenchDeps {
  deps: Deps;
  close(): Promise<void>;
}

export interface BenchEnv {
  /** A new migrated database with its own BullMQ prefix, plus Redis; close() drops it. */
  createDeps(env?: Env): Promise<BenchDeps>;
  /** Drops every database this environment created. */
  dropAll(): Promise<void>;
}

export function createBenchEnv(databaseUrl: string, redisUrl: string, runId: string): BenchEnv {
  const created: string[] = [];
  return {
    async createDeps(overrides = {}) {
      const name = `sbb_${runId}_${created.length}`;
      const url = new URL(databaseUrl);
      url.pathname = `/${name}`;
      await ensureDatabase(url.toString());
      created.push(name);
      const config = loadConfig({
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: url.toString(),
        REDIS_URL: redisUrl,
        BULLMQ_PREFIX: `sbb-${runId}-${created.length}`,
        ...overrides,
      });
      const db = createDb(config.database.url, { pool: { min: 2, max: 10 } });
      await migrateLatest(db);
      // A cluster (REDIS_CLUSTER_NODES in `env`: bench/partitions.bench.ts) needs its slot map before commands.
      const redis = createApiRedis(config.redis.clusterNodes ? config.redis : config.redis.url);
      redis.on('error', () => undefined);
      if (config.redis.clusterNodes) await whenRedisReady(redis);
      const queues = createQueues(redis, config.bullmqPrefix, () => undefined, config.webhooks.shards);
      const deps: Deps = createDeps({ config, db, redis, queues, logger: createLogger('silent') });
      return {
        deps,
        async close() {
          // Its last advances added before its keys go, so that none comes after.
          await deps.background.settled();
          // A cluster is the bench's own and goes with it; KEYS would read one node of it only.
          const keys = config.redis.clusterNodes ? [] : await redis.keys(`${config.bullmqPrefix}:*`);
          if (keys.length) await redis.del(...keys);
          await closeDeps(deps);
        },
      };
    },
    async dropAll() {
      for (const name of created.splice(0))
        await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    },
  };
}
