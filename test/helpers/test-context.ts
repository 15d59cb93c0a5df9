import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config, type Env } from '../../src/platform/config.js';
import { adminQuery, createDb, ensureDatabase, migrateLatest } from '../../src/platform/db.js';
import type { Deps } from '../../src/app/deps.js';
import { createLogger } from '../../src/platform/logger.js';
import { createQueues } from '../../src/platform/queues.js';
import { createApiRedis, whenRedisReady } from '../../src/platform/redis.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { closeDeps, createDeps } from '../../src/app/runtime.js';
import { startWorkers, type RunningWorkers } from '../../workers/index.js';
import { databaseName, deleteKeys, dropDatabases, redisPrefix } from './leftovers.js';

export const TEST_APP_SECRET = 'test-app-secret-0123456789abcdefghijklmnopqrstuvwxyz';

export interface TestContext {
  deps: Deps;
  dbName: string;
  /** A running API on 127.0.0.1 (real HTTP). */
  server: RunningServer;
  url: string;
  /** Starts the real BullMQ workers for this context (off by default). */
  startWorkers(opts?: { schedule?: boolean }): Promise<RunningWorkers>;
  /** Another API instance on the same database and Redis, with its own Redis connection, queues and key cache. */
  startAnotherServer(): Promise<RunningServer>;
  /**
   * A runtime of its own on the same database and Redis, every connection its own: closeDeps closes it all.
   * `applicationName` is what Postgres shows for its connections.
   */
  createRuntime(opts?: { applicationName?: string }): Promise<Deps>;
  close(): Promise<void>;
}

/**
 * Its own database (cloned from the run's migrated template), its own BullMQ prefix, its own server. A fault test
 * that owns a Postgres server passes `databaseUrl`: that database is created and migrated instead (and left for
 * the test to dispose of with its server). `tune` changes what no variable sets (a batching window, a limit), on
 * the config the context is built with; `logTo` receives the log lines (LOG_LEVEL in `env` says which).
 */
export async function createTestContext(
  env: Env = {},
  opts: { databaseUrl?: string; tune?: (config: Config) => void; logTo?: NodeJS.WritableStream } = {},
): Promise<TestContext> {
  const templateUrl = inject('templateDbUrl');
  const redisUrl = inject('redisUrl');
  const suffix = randomBytes(4).toString('hex');
  const dbName = databaseName(inject('runId'), suffix);
  // A cluster needs the prefix in hash-tag form; a single server does not mind it.
  const bare = redisPrefix(inject('runId'), suffix);
  const prefix = env.REDIS_CLUSTER_NODES ? `{${bare}}` : bare;
  // Recorded before anything is made: a context that fails half-built is cleaned up all the same.
  const made: Made = { dbName: opts.databaseUrl ? null : dbName, prefix, redisUrl, templateUrl, close: null };
  unclosed.add(made);
  const dbUrl = new URL(opts.databaseUrl ?? templateUrl);
  if (opts.databaseUrl) {
    await ensureDatabase(opts.databaseUrl);
    const migrator = createDb(opts.databaseUrl);
    await migrateLatest(migrator);
    await migrator.destroy();
  } else {
    const template = new URL(templateUrl).pathname.slice(1);
    await adminQuery(
      templateUrl,
      `CREATE DATABASE ${pg.escapeIdentifier(dbName)} TEMPLATE ${pg.escapeIdentifier(template)}`,
    );
    dbUrl.pathname = `/${dbName}`;
  }

  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    APP_SECRET: TEST_APP_SECRET,
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redisUrl,
    BULLMQ_PREFIX: prefix,
    ...env,
  });
  opts.tune?.(config);
  const logger = createLogger(config.logLevel, undefined, opts.logTo);
  const db = createDb(config.database.url, { logger });
  const connect = async () => {
    const redis = createApiRedis(config.redis);
    redis.on('error', () => undefined);
    // A cluster client refuses commands until it has the slot map; a single server may be meant to be dead here.
    if (config.redis.clusterNodes) await whenRedisReady(redis);
    return { redis, queues: createQueues(redis, config.bullmqPrefix, () => undefined, config.webhooks.shards) };
  };
  const { redis, queues } = await connect();
  const deps: Deps = createDeps({ config, db, redis, queues, logger });
  const servers: RunningServer[] = [await startServer(deps, 0, '127.0.0.1')];
  const workers: RunningWorkers[] = [];
  const others: Deps[] = [];

  const context: TestContext = {
    deps,
    dbName,
    server: servers[0]!,
    url: servers[0]!.url,
    async startWorkers(opts = {}) {
      const running = await startWorkers(deps, { schedule: opts.schedule ?? false });
      workers.push(running);
      return running;
    },
    async startAnotherServer() {
      // Another instance of the same service: nothing in memory shared with the first (its own Redis connection,
      // queues, key cache), the same database pool, and the same public URL (OAuth issuer and resources).
      const other = createDeps({ config, db, logger, ...(await connect()) });
      others.push(other);
      const s = await startServer(other, 0, '127.0.0.1', { publicUrl: servers[0]!.url });
      servers.push(s);
      return s;
    },
    async createRuntime(opts = {}) {
      const connections = await connect();
      // No offline queue: its first add must not come before the connection is up.
      await whenRedisReady(connections.redis);
      const db = createDb(config.database.url, { logger, applicationName: opts.applicationName });
      return createDeps({ config, db, logger, ...connections });
    },
    async close() {
      try {
        await Promise.all(servers.map((s) => s.close()));
        await Promise.all(workers.map((w) => w.close()));
        for (const d of [deps, ...others]) await closeDeps(d, { keepDb: true });
        await db.destroy();
      } finally {
        await forget(made);
      }
    },
  };
  made.close = context.close;
  return context;
}

/** What a context made that outlives its processes: its database (unless the test's own) and its keys. */
interface Made {
  dbName: string | null;
  prefix: string;
  redisUrl: string;
  templateUrl: string;
  close: (() => Promise<void>) | null;
}

/** The contexts of the file running in this worker process that are not closed yet (module state, per worker). */
const unclosed = new Set<Made>();

/** Deletes the context's keys and drops its database. */
async function forget(made: Made): Promise<void> {
  unclosed.delete(made);
  // Through the run's real Redis (a test may have pointed its own deps at a dead one): the prefix's keys and its
  // delivery shards' (`sbt-x-<n>`, `{sbt-x-<n>}`: the prefix's stem, then more).
  await deleteKeys(made.redisUrl, [`${made.prefix.replace(/\}.*$/, '')}*`]);
  if (made.dbName) await dropDatabases({ databaseUrl: made.templateUrl, redisUrl: made.redisUrl }, [made.dbName]);
}

/** Closes every context a file left open (a test that failed before its afterAll, a context half made). */
export async function closeContexts(): Promise<void> {
  for (const made of [...unclosed]) {
    try {
      await made.close?.();
    } finally {
      if (unclosed.has(made)) await forget(made);
    }
  }
}
