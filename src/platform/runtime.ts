import { ConfigError, loadConfig, type Config } from './config.js';
import { createDb, ensureDatabase, migrateLatest } from './db.js';
import { closeHttpClient } from './http-client.js';
import type { Deps } from './deps.js';
import { ensureLocalServices, StartupError } from './local-services.js';
import { createLogger } from './logger.js';
import { createQueues } from './queues.js';
import { createApiRedis } from './redis.js';

export interface Runtime {
  deps: Deps;
  close(): Promise<void>;
}

/** Connects to (or starts, in development) Postgres and Redis, and applies migrations when asked to. */
export async function bootRuntime(opts: { migrate: boolean; config?: Config }): Promise<Runtime> {
  const config = opts.config ?? loadConfig();
  const logger = createLogger(config.logLevel);
  if (config.webhooks.allowPrivateTargets) {
    logger.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS=true: webhooks may target http:// and private addresses. Never in production');
  }
  const local = await ensureLocalServices(config, logger);
  const resolved: Config = {
    ...config,
    database: { ...config.database, url: local.databaseUrl },
    redis: { ...config.redis, url: local.redisUrl },
  };
  await ensureDatabase(resolved.database.url);
  const db = createDb(resolved.database.url, { logger });
  if (opts.migrate) {
    const applied = await migrateLatest(db);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
  const redis = createApiRedis(resolved.redis.url);
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  const queues = createQueues(redis, resolved.bullmqPrefix, (err) => logger.warn({ err: err.message }, 'queue error'));
  const deps: Deps = { config: resolved, db, redis, queues, logger };
  return {
    deps,
    close: async () => {
      await queues.close();
      await closeHttpClient();
      redis.disconnect();
      await db.destroy();
      await local.stop();
    },
  };
}

/** Runs an entry point; a configuration or start-up problem prints one line and exits 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof StartupError) {
      console.error(`switchboard: ${err.message}`);
    } else {
      console.error('switchboard: failed to start:', err);
    }
    process.exit(1);
  });
}

/** Calls `stop` once on SIGTERM or SIGINT, then exits. */
export function onShutdown(logger: Deps['logger'], stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests and jobs in flight');
    stop()
      .then(() => process.exit(0))
      .catch((err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('SIGINT', () => handler('SIGINT'));
}
