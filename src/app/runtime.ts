import { createClaimHolder } from '../idempotency/claim-holder.js';
import { createKeyCache } from '../keys/key-cache.js';
import { createSignInLimits } from '../auth/sign-in-limits.js';
import { createDelivery } from '../delivery/index.js';
import { insertEventWithDeliveries } from '../delivery/sql/fan-out.js';
import { scheduleCommitted } from '../delivery/schedule.js';
import { createSigningKeyring } from '../delivery/sign.js';
import { createStreamHub } from '../webhooks/stream-hub.js';
import { createEventWakeups } from '../mcp/events/wakeups.js';
import { createWebhookStatsRecorder } from '../webhooks/endpoint-stats.service.js';
import { ConfigError, loadConfig, type Config } from '../platform/config.js';
import { createBackground } from '../platform/background.js';
import { createSealers } from '../platform/crypto.js';
import { createUsageMemo } from '../platform/usage-memo.js';
import { createDb, DatabaseMissingError, ensureDatabase, migrateLatest, type Db } from '../platform/db.js';
import { withoutPassword } from '../platform/url-password.js';
import type { Connections, Deps } from './deps.js';
import { startShutdownClock } from './shutdown-clock.js';
import { createHttpClient } from '../platform/http-client.js';
import { ensureLocalServices, StartupError, type LocalServices } from '../platform/local-services.js';
import { createServiceLogger, type Logger } from '../platform/logger.js';
import { createServiceMetrics } from '../platform/metrics.js';
import { createQueues } from '../platform/queues.js';
import { createApiRedis, describeRedis, whenRedisReady } from '../platform/redis.js';
import { flushTraces, tracingState } from '../platform/tracing.js';

/** What Postgres shows for a process's connections: `switchboard` alone for the one-process mode. */
export type ProcessName = 'switchboard' | 'switchboard-api' | 'switchboard-workers' | 'switchboard-migrate';

export interface Runtime {
  deps: Deps;
  /** What this process started itself (development fallbacks), for the start-up banner. */
  started: LocalServices['started'];
  close(): Promise<void>;
}

/** Says where spans go, or that an OTLP endpoint is set in a process started without the instrumentation. */
function reportTracing(config: Config, logger: Logger): void {
  if (!config.tracing) return;
  if (tracingState.on) {
    logger.info({ traces: config.tracing.url, protocol: config.tracing.protocol }, 'traces exported over OTLP');
  } else {
    logger.warn(
      'OTEL_EXPORTER_OTLP_ENDPOINT is set but this process was started without --import of src/instrumentation: ' +
        'no traces (docs/tracing.md)',
    );
  }
}

/**
 * Connects to (or starts, in development) Postgres and Redis, and applies migrations when asked to. `name` is what
 * Postgres shows for this process's connections (docs/operations.md#which-process-holds-a-connection).
 */
export async function bootRuntime(opts: {
  name: ProcessName;
  migrate: boolean;
  config?: Config;
  /** false in npm start's API and worker processes: their first child already warned (src/supervised.ts). */
  warnings?: boolean;
}): Promise<Runtime> {
  const config = opts.config ?? loadConfig();
  const logger = createServiceLogger(config.logLevel, config.logFormat);
  if (opts.warnings !== false) warnAboutSettings(config, logger);
  const { resolved, local } = await prepareServices(config, logger);
  const db = createDb(resolved.database.url, { logger, applicationName: opts.name });
  if (opts.migrate) await migrate(db, logger);
  const redis = createApiRedis(resolved.redis);
  redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis connection error'));
  // The API connection has no offline queue: a cluster client needs its slot map before the first command.
  await whenRedisReady(redis).catch(() => {
    redis.disconnect();
    throw new StartupError(`Redis at ${describeRedis(resolved.redis)} stopped answering during start-up`);
  });
  const queues = createQueues(
    redis,
    resolved.bullmqPrefix,
    (err) => logger.warn({ err: err.message }, 'queue error'),
    resolved.webhooks.shards,
  );
  const deps = createDeps({ config: resolved, db, redis, queues, logger });
  reportTracing(config, logger);
  return {
    deps,
    started: local.started,
    close: async () => {
      await closeDeps(deps);
      await local.stop();
    },
  };
}

/** What a person must not leave on in production, said once by each process that starts the service. */
export function warnAboutSettings(config: Config, logger: Logger): void {
  if (config.webhooks.allowPrivateTargets) {
    logger.warn(
      'WEBHOOK_ALLOW_PRIVATE_TARGETS=true: webhooks may target http:// and private addresses. Never in production',
    );
  }
}

/**
 * Finds Postgres and Redis (starting the development fallbacks when nothing answers and no URL is set) and
 * creates the database: the config returned names the URLs actually used.
 */
export async function prepareServices(
  config: Config,
  logger: Logger,
): Promise<{ resolved: Config; local: LocalServices }> {
  const local = await ensureLocalServices(config, logger);
  const resolved: Config = {
    ...config,
    database: { ...config.database, url: local.databaseUrl },
    redis: { ...config.redis, url: local.redisUrl },
  };
  await ensureDatabase(resolved.database.url).catch((err: unknown) => {
    if (!(err instanceof DatabaseMissingError)) throw err;
    throw new StartupError(`Postgres at ${withoutPassword(resolved.database.url)}: ${err.message}`);
  });
  return { resolved, local };
}

export async function migrate(db: Db, logger: Logger): Promise<void> {
  const applied = await migrateLatest(db);
  // A count and the newest: a first start applies every migration, and their names would fill a screen.
  if (applied.length) logger.info({ count: applied.length, latest: applied.at(-1) }, 'migrations applied');
}

/** The name the pool gives its connections (docs/operations.md#which-process-holds-a-connection), for the others. */
const applicationNameOf = (db: Db): string | undefined =>
  (db.client.config as { connection?: { application_name?: string } }).connection?.application_name;

/** Everything a runtime keeps, built on its connections (the composition root of the service). */
export function createDeps(connections: Connections): Deps {
  const { config, db, redis, queues, logger } = connections;
  const sealers = createSealers(config.appSecret);
  const background = createBackground(logger);
  const http = createHttpClient(config);
  return {
    ...connections,
    http,
    sealers,
    webhookKeys: createSigningKeyring(sealers.webhook),
    keyCache: createKeyCache(redis),
    usageMemos: { keys: createUsageMemo(), grants: createUsageMemo() },
    signInLimits: createSignInLimits(redis, config),
    delivery: createDelivery(connections, http, sealers.webhook),
    streamHub: createStreamHub(config, redis, logger),
    eventWakeups: createEventWakeups(config, logger),
    webhookStats: createWebhookStatsRecorder(db, logger, background),
    eventFanOut: { insertEventWithDeliveries, scheduleCommitted },
    metrics: createServiceMetrics(queues),
    background,
    claimHolder: createClaimHolder(config.database.url, logger, applicationNameOf(db)),
    lifecycle: { draining: false },
  };
}

/**
 * Closes what createDeps built and the connections under it; with `keepDb`, all but the Postgres pool, for an owner
 * that shares one pool between runtimes (the tests' second API instance).
 */
export async function closeDeps(deps: Deps, opts: { keepDb?: boolean } = {}): Promise<void> {
  // The last commits' jobs and the last attempts' figures, while Redis and Postgres are still open (with either
  // away they fail at once: the sweep schedules again the deliveries, and the figures are dropped).
  await deps.background.settled();
  await deps.streamHub.close();
  await deps.eventWakeups.close();
  await deps.delivery.close();
  await deps.queues.close();
  await deps.http.close();
  await deps.claimHolder.close();
  deps.redis.disconnect();
  if (!opts.keepDb) await deps.db.destroy();
}

/** Node 20 reached end of life in April 2026; oidc-provider and the MCP conformance suite need 22 or newer. */
const MIN_NODE_MAJOR = 22;

/** Runs an entry point; a configuration or start-up problem prints one line and exits 1. */
export function runMain(main: () => Promise<void>): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < MIN_NODE_MAJOR) {
    console.error(
      `switchboard: needs Node ${MIN_NODE_MAJOR} or newer (developed and tested on 24); this is ${process.version}. ` +
        'npm ci installs Node 24 into node_modules on Linux x64; elsewhere install the version in .nvmrc.',
    );
    process.exit(1);
  }
  main().catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof StartupError) {
      console.error(`switchboard: ${err.message}`);
    } else {
      console.error('switchboard: failed to start:', err);
    }
    process.exit(1);
  });
}

/**
 * Calls `stop` once, on SIGTERM or SIGINT or when the returned function is called, then exits. `stop` is handed
 * a deadline (at 80 % of SHUTDOWN_TIMEOUT_MS) by which it gives up waiting; at 90 % the process exits whatever
 * is still open, so that it is gone within the timeout even when `stop` hangs. With `quiet` (a child of npm start,
 * whose supervisor says both for all its processes) "shutting down" and "stopped" are debug lines.
 */
export function onShutdown(
  logger: Logger,
  timeoutMs: number,
  stop: (deadline: Promise<void>) => Promise<void>,
  opts: { quiet?: boolean } = {},
): (reason: string) => void {
  let stopping = false;
  const say = (facts: object, msg: string) => (opts.quiet ? logger.debug(facts, msg) : logger.info(facts, msg));
  const shutdown = (reason: string) => {
    if (stopping) return;
    stopping = true;
    say({ reason, timeoutMs }, 'shutting down: finishing requests and jobs in flight');
    const deadline = startShutdownClock(timeoutMs, logger);
    stop(deadline)
      // The spans of the last requests and jobs, within what is left before the forced exit.
      .then(() => flushTraces(Math.floor(timeoutMs * 0.08)))
      .then(() => {
        say({ reason }, 'stopped');
        process.exit(0);
      })
      .catch((err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  return shutdown;
}
