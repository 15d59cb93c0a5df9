import { describeStartup } from './http/banner.js';
import { assertPortFree } from './http/server.js';
import { bootRuntime, migrate, onShutdown, prepareServices, runMain, warnAboutSettings } from './app/runtime.js';
import { startRoles, type RoleSet } from './app/roles.js';
import type { ChildRole, PreparedMessage, ReadyMessage } from './app/supervisor.js';
import { resolveWorkerCount } from './app/worker-count.js';
import { loadConfig, type Config } from './platform/config.js';
import { createDb } from './platform/db.js';
import type { LocalServices } from './platform/local-services.js';
import { createServiceLogger } from './platform/logger.js';

// A child process of npm start (src/main.ts, src/app/supervisor.ts). "prepare" reads the configuration, finds or
// starts Postgres and Redis, migrates and tells the parent what it resolved; it stays only to own what it started
// (or, with WORKERS=0, to run everything). "api" and "workers" run one role on what the first child resolved. The
// supervisor logs start-up and shutdown for all of them: a child's own shutdown lines are at debug level.

const send = (m: PreparedMessage | ReadyMessage) => process.send?.(m);

runMain(async () => {
  const role = process.argv[2] as ChildRole;
  if (role === 'prepare') return prepare();
  if (role !== 'api' && role !== 'workers') throw new Error(`expected a role among prepare, api, workers, got ${role}`);
  const started = parseStarted(process.argv[3]);
  await runRoles(`switchboard-${role}`, { api: role === 'api', workers: role === 'workers' }, started);
});

async function prepare(): Promise<void> {
  const config = loadConfig();
  const workers = resolveWorkerCount(config.workers);
  const logger = createServiceLogger(config.logLevel, config.logFormat);
  // Before anything is started: a port in use refuses with one line.
  await assertPortFree(config.port, config.host);
  if (workers === 0) {
    announce(config, workers, { postgres: false, redis: false }, {});
    return runRoles('switchboard', { api: true, workers: true }, null, config);
  }
  warnAboutSettings(config, logger);
  const { resolved, local } = await prepareServices(config, logger);
  const db = createDb(resolved.database.url, { logger, applicationName: 'switchboard-migrate' });
  try {
    await migrate(db, logger);
  } finally {
    await db.destroy();
  }
  // Each child waits less than the supervisor, so that a child cut at its own deadline still exits before it.
  announce(config, workers, local.started, {
    DATABASE_URL: resolved.database.url,
    ...(resolved.redis.clusterNodes ? {} : { REDIS_URL: resolved.redis.url }),
    SHUTDOWN_TIMEOUT_MS: String(Math.floor(config.shutdownTimeoutMs * 0.7)),
  });
  if (!local.started.postgres && !local.started.redis) {
    process.disconnect?.();
    return;
  }
  // Owns the development fallbacks until the supervisor stops it, after the processes that use them.
  onShutdown(logger, config.shutdownTimeoutMs, () => local.stop(), { quiet: true });
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

function announce(config: Config, workers: number, started: LocalServices['started'], env: Record<string, string>) {
  send({
    type: 'prepared',
    workers,
    log: { level: config.logLevel, format: config.logFormat },
    env,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    metricsPort: config.metricsPort,
    started,
  });
}

async function runRoles(
  name: 'switchboard' | 'switchboard-api' | 'switchboard-workers',
  roles: RoleSet,
  started: LocalServices['started'] | null,
  config?: Config,
) {
  const alone = name === 'switchboard';
  const runtime = await bootRuntime({ name, migrate: alone, config, warnings: alone });
  const { deps } = runtime;
  const running = await startRoles(runtime, roles);
  const shutdown = onShutdown(deps.logger, deps.config.shutdownTimeoutMs, running.stop, { quiet: true });
  // The parent is gone (killed hard): drain and stop rather than run unsupervised.
  process.on('disconnect', () => shutdown('supervisor gone'));
  const url = running.publicUrl;
  const facts = url && { config: deps.config, url, roles: '', started: started ?? runtime.started };
  send({ type: 'ready', publicUrl: url, banner: facts ? describeStartup(facts) : null });
  deps.logger.debug({ roles }, 'switchboard process ready');
}

/** "postgres,redis", "postgres", "-": what the first child started, for the banner's rows. */
function parseStarted(arg: string | undefined): LocalServices['started'] {
  const names = (arg ?? '').split(',');
  return { postgres: names.includes('postgres'), redis: names.includes('redis') };
}
