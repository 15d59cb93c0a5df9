import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/platform/config.js';
import { adminQuery, createDb, ensureDatabase, migrateLatest } from '../../src/platform/db.js';
import { createLogger } from '../../src/platform/logger.js';
import { ensureLocalServices } from '../../src/platform/local-services.js';

// Once per run: find (or start) Postgres and Redis, and build a migrated template database that every test
// file clones. The run only ever creates and drops databases whose names it generated itself.

declare module 'vitest' {
  export interface ProvidedContext {
    templateDbUrl: string;
    redisUrl: string;
    runId: string;
  }
}

export default async function setup(project: TestProject) {
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    DATABASE_URL: process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL,
  });
  const local = await ensureLocalServices(config, createLogger('silent'));
  const runId = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const templateUrl = new URL(local.databaseUrl);
  templateUrl.pathname = `/sbt_tpl_${runId}`;
  await ensureDatabase(templateUrl.toString());
  const db = createDb(templateUrl.toString());
  await migrateLatest(db);
  await db.destroy();

  project.provide('templateDbUrl', templateUrl.toString());
  project.provide('redisUrl', local.redisUrl);
  project.provide('runId', runId);

  return async () => {
    await adminQuery(
      templateUrl.toString(),
      `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(`sbt_tpl_${runId}`)} WITH (FORCE)`,
    );
    await local.stop();
  };
}
