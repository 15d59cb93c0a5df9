import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Logger } from './logger.js';

// Counts and money come back as numbers, not strings; timestamps as Date.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

export type Db = Knex;

/**
 * What repositories take: the pool (a Db) or an open transaction (src/platform/transaction.ts). A table's query
 * builder, raw statements and knex's helpers, each run on the pool or on the transaction's connection.
 */
export interface Conn {
  // knex's own table call (its Knex type's), rows untyped unless named, so that a Db is a Conn as it is.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  <TRecord extends {} = any, TResult = unknown[]>(table: Knex.TableDescriptor): Knex.QueryBuilder<TRecord, TResult>;
  raw: Knex.RawBuilder;
  fn: Knex.FunctionHelper;
  ref: Knex.RefBuilder;
  /** The pool's client, or the transaction's: the one that hands out its connection. */
  client: Knex.Client;
}

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

/**
 * knex's own warnings (pool acquire failures, deprecations) go to the service logger, not the console.
 * `applicationName` is what Postgres shows for this process's connections (pg_stat_activity.application_name),
 * unless the URL names one.
 */
export function createDb(
  url: string,
  opts: { logger?: Logger; pool?: { min: number; max: number }; applicationName?: string } = {},
): Db {
  const log = opts.logger;
  return knexFactory({
    client: 'pg',
    // No connection-wide plan mode: Postgres picks custom or generic plans per prepared statement (plan_cache_mode
    // auto), and test/integration/query-plans.test.ts checks that every hot statement stays on an index both ways.
    connection: { connectionString: url, application_name: opts.applicationName },
    pool: opts.pool ?? { min: 0, max: 10 },
    acquireConnectionTimeout: 10_000,
    log: {
      warn: (message: unknown) => log?.warn({ knex: String(message) }, 'knex warning'),
      error: (message: unknown) => log?.error({ knex: String(message) }, 'knex error'),
      deprecate: (method: string, alternative: string) => log?.warn({ method, alternative }, 'knex deprecation'),
      debug: () => undefined,
    },
  });
}

/** A hot statement: a name that belongs to this one SQL text ($1, $2 … placeholders), and the rows it answers. */
export interface Prepared<Row> {
  name: string;
  text: string;
  /** false: planned with sequential scans off, so that no statistics make it read a day partition whole. */
  seqScan?: false;
  /** Never set: carries the row type. */
  row?: Row;
}

/** node-postgres's client as knex's pool hands it out (only what runPrepared and a transaction send). */
export interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  query(text: string): Promise<unknown>;
}

/**
 * Declares a hot statement. Run by `runPrepared` as a named prepared statement: Postgres parses it once per
 * connection instead of on every call, and after five executions may keep a generic plan, which is most of the
 * server's work saved for the small batches of a lightly loaded worker. `name` must belong to this one SQL text
 * (node-postgres refuses a name reused for another text).
 */
export const prepare = <Row>(name: string, text: string, opts: { seqScan?: false } = {}): Prepared<Row> => ({
  name,
  text,
  ...opts,
});

/**
 * SQL for a bound on a day-partitioned table's `created_at`, taken from the timestamptz parameter `param` ("$3")
 * and used by Postgres when the statement starts rather than when it is planned: `timestamptz + interval` is only
 * stable, so no plan prunes day partitions with it at planning time, the custom plans cost the same as the generic
 * one, Postgres keeps the generic plan, and that plan drops every day partition outside the bounds before starting
 * a scan. A bound Postgres can fold at planning time makes every custom plan look cheaper than the generic plan, and
 * the statement is planned again on every call. Without a bound, a generic plan starts a scan of every day partition
 * (45 at the defaults) on each execution and prunes only as rows come (docs/plans.md#day-partitions-pruned-at-start).
 */
export const startupBound = (param: string): string => `(${param}::timestamptz + interval '0 days')`;

/**
 * Runs a prepared statement on the node-postgres client under `conn`: one of the pool's connections, or the
 * transaction's own. Knex's query building, binding formatting and runner cost about as much node CPU per call
 * as the driver's protocol work (docs/performance.md#delivery-pipeline-cost-per-event), so the statements on
 * every event's path skip them. It still goes through knex's pool, its acquire timeout and its transaction, and
 * sends knex's `query` event, so what listens to knex (test/helpers/explain.ts) sees these statements too.
 */
export async function runPrepared<Row>(conn: Conn, statement: Prepared<Row>, values: unknown[]): Promise<Row[]> {
  const { client } = conn;
  const query = { name: statement.name, text: statement.text, values };
  const send = async (connection: PgConnection) => {
    client.emit('query', { sql: statement.text, bindings: values, options: { name: statement.name } });
    return (await connection.query(query)).rows as Row[];
  };
  // A transaction's statements go on its own connection (src/platform/transaction.ts).
  const own = (conn as { pgConnection?: PgConnection }).pgConnection;
  if (own) return statement.seqScan === false ? withoutSeqScanIn(own, send) : send(own);
  const connection = (await client.acquireConnection()) as PgConnection;
  try {
    return statement.seqScan === false ? await withoutSeqScan(connection, send) : await send(connection);
  } finally {
    await client.releaseConnection(connection);
  }
}

// The statements that read day partitions (docs/plans.md#no-statement-of-the-delivery-path-scans-a-day)
// are planned with enable_seqscan off: Postgres then prices a sequential scan at 10^10 and takes one only where no
// index can answer, and each of them has an index that can. So a day partition is never read whole by them, whatever
// its statistics say and whenever they were taken; and a generic plan Postgres keeps for one was made under the same
// setting, since every execution of the statement runs under it. The setting is SET LOCAL, in a transaction that
// holds this one statement (or put back to the session's value right after it, in a caller's transaction): no other
// statement on the connection is planned under it.

async function withoutSeqScan<Row>(connection: PgConnection, send: (c: PgConnection) => Promise<Row[]>) {
  await connection.query('BEGIN; SET LOCAL enable_seqscan = off');
  try {
    const rows = await send(connection);
    await connection.query('COMMIT');
    return rows;
  } catch (err) {
    await connection.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

async function withoutSeqScanIn<Row>(connection: PgConnection, send: (c: PgConnection) => Promise<Row[]>) {
  await connection.query('SET LOCAL enable_seqscan = off');
  try {
    return await send(connection);
  } finally {
    await connection.query('SET LOCAL enable_seqscan TO DEFAULT').catch(() => undefined);
  }
}

/**
 * Migrations are loaded with our own import(), so they run wherever our TypeScript runs (tsx, vitest)
 * without knex needing to understand .ts files, and compiled (dist/migrations/*.js, `npm run build`). A compiled
 * migration keeps its .ts name in knex_migrations, so a database migrated by either is up to date for the other.
 */
const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () =>
    readdirSync(MIGRATIONS_DIR)
      .filter((f) => /^\d+_[a-z0-9_]+\.(ts|js)$/.test(f))
      .sort(),
  getMigrationName: (file) => file.replace(/\.js$/, '.ts'),
  getMigration: (file) => import(pathToFileURL(join(MIGRATIONS_DIR, file)).href) as Promise<Knex.Migration>,
};

export const migrationConfig: Knex.MigratorConfig = { migrationSource, tableName: 'knex_migrations' };

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}

/** Runs one statement on the server's maintenance database (`postgres`): creating and dropping databases. */
export async function adminQuery(url: string, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/**
 * Creates the database named in the URL when it does not exist yet. A role that may not create it gets a
 * DatabaseMissingError: the start-up line says the database is missing, not only that a CREATE was refused.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name) throw new Error('DATABASE_URL names no database');
  try {
    const { rowCount } = await adminQuery(url, 'SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await adminQuery(url, `CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } catch (err) {
    const code = (err as { code?: string }).code;
    // Two processes starting at once may both try; the loser sees duplicate_database.
    if (code === '42P04') return;
    if (code === '42501') {
      const user = decodeURIComponent(new URL(url).username) || 'this role';
      throw new DatabaseMissingError(`database "${name}" does not exist, and role "${user}" may not create it`);
    }
    throw err;
  }
}

export class DatabaseMissingError extends Error {}

/**
 * How Postgres at `url` answered a login to its maintenance database: `listening: false` when nothing answered
 * (refused, unreachable, timed out), else Postgres's own reason for refusing it (a wrong password, a missing role,
 * no pg_hba.conf entry), or ok.
 */
export type PostgresProbe = { ok: true } | { ok: false; listening: boolean; reason: string };

/** Postgres's SQLSTATE classes 28 (authorization) and 3D (no such database), and 53/57 (not accepting now). */
const ANSWERED = /^(28|3D|53|57)/;

export async function probePostgres(url: string): Promise<PostgresProbe> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return { ok: true };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    const answered = typeof e.code === 'string' && ANSWERED.test(e.code);
    const reason = answered ? `${e.message} (SQLSTATE ${e.code})` : (e.message ?? String(err));
    return { ok: false, listening: answered, reason: reason.split('\n')[0]! };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Whether Postgres at `url` takes a connection now. */
export async function canConnect(url: string): Promise<boolean> {
  return (await probePostgres(url)).ok;
}
