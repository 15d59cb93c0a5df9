import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/platform/config.js';
import { createDb, ensureDatabase, migrateLatest } from '../../src/platform/db.js';
import { createLogger } from '../../src/platform/logger.js';
import { ensureLocalServices } from '../../src/platform/local-services.js';
import { endDeadRuns, endRun, newRunId, RUN_MARK, templateDatabaseName } from './leftovers.js';

// Once per run: find (or start) Postgres and Redis, end what earlier runs whose vitest is gone left behind, and build
// a migrated template database that every test file clones. The run only ever creates, drops and ends what carries
// its own id (test/helpers/leftovers.ts), and ends all of it at its end, also when interrupted.

declare module 'vitest' {
  export interface ProvidedContext {
    templateDbUrl: string;
    redisUrl: string;
    runId: string;
  }
}

const INTERRUPTED_RUN = fileURLToPath(new URL('./interrupted-run.ts', import.meta.url));

export default async function setup(project: TestProject) {
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    DATABASE_URL: process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL,
  });
  const local = await ensureLocalServices(config, createLogger('silent'));
  const services = { databaseUrl: local.databaseUrl, redisUrl: local.redisUrl };
  const dead = await endDeadRuns(services);
  if (dead.length) console.warn(`ended what ${dead.length} earlier test run(s) left behind: ${dead.join(', ')}`);

  const runId = newRunId();
  // The workers vitest forks from here inherit the mark, and every process they start inherits it from them.
  process.env[RUN_MARK] = runId;
  // vitest exits 1 ms after SIGINT or SIGTERM without its teardown: the run ends its own before then, synchronously.
  const onSignal = () => {
    const env = { ...process.env };
    delete env[RUN_MARK];
    spawnSync(process.execPath, ['--import', 'tsx', INTERRUPTED_RUN, runId, services.databaseUrl, services.redisUrl], {
      env,
      stdio: 'inherit',
      timeout: 120_000,
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const templateUrl = new URL(local.databaseUrl);
  templateUrl.pathname = `/${templateDatabaseName(runId)}`;
  await ensureDatabase(templateUrl.toString());
  const db = createDb(templateUrl.toString());
  await migrateLatest(db);
  await db.destroy();

  project.provide('templateDbUrl', templateUrl.toString());
  project.provide('redisUrl', local.redisUrl);
  project.provide('runId', runId);

  return async () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await endRun(runId, services, { workers: false });
    await local.stop();
  };
}
