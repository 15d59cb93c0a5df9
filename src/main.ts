import { logStartup } from './http/banner.js';
import { assertPortFree } from './http/server.js';
import { bootRuntime, migrate, onShutdown, prepareServices, runMain } from './app/runtime.js';
import { describeRoles, startRoles } from './app/roles.js';
import { resolveWorkerCount, startSupervisor } from './app/supervisor.js';
import { loadConfig, type Config } from './platform/config.js';
import { createDb } from './platform/db.js';
import { createServiceLogger } from './platform/logger.js';

// npm start (docs/processes.md): migrations once, then the API and WORKERS worker processes, supervised by this
// one; WORKERS=0 runs the API, every worker and the scheduler in this one process.
runMain(async () => {
  const config = loadConfig();
  const workers = resolveWorkerCount(config.workers);
  if (workers === 0) return runInOneProcess(config);

  const logger = createServiceLogger(config.logLevel, config.logFormat);
  // Before anything is started: a port in use refuses with one line.
  await assertPortFree(config.port, config.host);
  const { resolved, local } = await prepareServices(config, logger);
  const db = createDb(resolved.database.url, { logger, applicationName: 'switchboard-migrate' });
  try {
    await migrate(db, logger);
  } finally {
    await db.destroy();
  }
  // Each child waits less than this process, so that a child cut at its own deadline still exits before ours.
  const env = {
    DATABASE_URL: resolved.database.url,
    ...(resolved.redis.clusterNodes ? {} : { REDIS_URL: resolved.redis.url }),
    SHUTDOWN_TIMEOUT_MS: String(Math.floor(config.shutdownTimeoutMs * 0.7)),
  };
  const supervisor = await startSupervisor({ logger, workers, env, metricsPort: config.metricsPort }).catch(
    async (err: unknown) => {
      await local.stop();
      throw err;
    },
  );
  const roles = supervisor.describe();
  logStartup(logger, { config: resolved, url: supervisor.publicUrl, roles, started: local.started });
  onShutdown(logger, config.shutdownTimeoutMs, async (deadline) => {
    await supervisor.stop(deadline);
    await local.stop();
  });
});

async function runInOneProcess(config: Config): Promise<void> {
  const runtime = await bootRuntime({ name: 'switchboard', migrate: true, config });
  const { deps } = runtime;
  const roles = { api: true, workers: true };
  const running = await startRoles(runtime, roles);
  const facts = { config: deps.config, url: running.publicUrl!, roles: describeRoles(roles), started: runtime.started };
  logStartup(deps.logger, facts);
  onShutdown(deps.logger, deps.config.shutdownTimeoutMs, running.stop);
}
