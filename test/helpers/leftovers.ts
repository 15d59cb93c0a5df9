import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { Redis } from 'ioredis';
import { adminQuery } from '../../src/platform/db.js';

// What a test run leaves behind, found by the run's id and ended. A run's id is the pid of the vitest process that
// owns it and six random hex digits; every name the run makes carries it: its databases (`sbt_<run>_<file>` and the
// template `sbt_tpl_<run>`), its Redis prefixes (`sbt-<run>-<file>`, and whatever a test appends), and every
// process a test starts carries it in its environment as RUN_MARK (test/helpers/children.ts), which descendants
// inherit. `endRun` ends all of one run: at the end of the run (global-setup's teardown), when vitest is
// interrupted (its signal handler runs test/helpers/interrupted-run.ts), and at the start of a later run for every
// run whose owner is gone (`endDeadRuns`). Each file's own leftovers end sooner, in its afterAll
// (test/helpers/file-cleanup.ts).

/** The environment variable every process of a run carries: the run's id. */
export const RUN_MARK = 'SWITCHBOARD_TEST_RUN';

export const newRunId = (): string => `${process.pid}_${randomBytes(3).toString('hex')}`;
export const templateDatabaseName = (runId: string): string => `sbt_tpl_${runId}`;
export const databaseName = (runId: string, file: string): string => `sbt_${runId}_${file}`;
export const redisPrefix = (runId: string, file: string): string => `sbt-${runId}-${file}`;

const RUN_ID = String.raw`(\d+_[0-9a-f]{6})`;
const RUN_OF_DATABASE = new RegExp(`^sbt_(?:tpl_)?${RUN_ID}(?:_|$)`);
const RUN_OF_KEY = new RegExp(`^\\{?sbt-${RUN_ID}-`);

export interface Services {
  /** Any database URL of the server the run's databases are on. */
  databaseUrl: string;
  redisUrl: string;
}

/** Whether the vitest process that owns the run is still there (another user's counts as there). */
export function ownerAlive(runId: string): boolean {
  try {
    process.kill(Number(runId.split('_')[0]), 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Marked {
  pid: number;
  ppid: number;
  pgid: number;
  run: string;
}

/** Every process whose environment carries a run's mark, as /proc shows them. */
export function markedProcesses(): Marked[] {
  const found: Marked[] = [];
  const prefix = `${RUN_MARK}=`;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const entry = readFileSync(`/proc/${name}/environ`, 'latin1')
        .split('\0')
        .find((e) => e.startsWith(prefix));
      if (!entry) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      found.push({ pid: Number(name), ppid: Number(ppid), pgid: Number(pgid), run: entry.slice(prefix.length) });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/**
 * SIGKILLs every process of the run, a whole group where its leader is of the run too, until none is left (`capMs`
 * only bounds a process stuck in the kernel). The owner's own children (vitest's workers) are spared unless
 * `workers`: at the end of a run they are vitest's to stop; when the run is interrupted they go first.
 */
export async function endRunProcesses(runId: string, opts: { workers: boolean; capMs?: number }): Promise<number> {
  const owner = Number(runId.split('_')[0]);
  const deadline = Date.now() + (opts.capMs ?? 30_000);
  const ended = new Set<number>();
  for (;;) {
    const run = markedProcesses().filter((p) => p.run === runId && p.pid !== process.pid);
    const left = run.filter((p) => opts.workers || p.ppid !== owner);
    if (left.length === 0 || Date.now() > deadline) return ended.size;
    const leaders = new Set(run.filter((p) => p.pid === p.pgid).map((p) => p.pid));
    for (const p of left) {
      ended.add(p.pid);
      try {
        process.kill(leaders.has(p.pgid) && p.pgid !== owner ? -p.pgid : p.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Drops the databases named (they need not exist), closing whatever is still connected to them. FORCE waits 5 s for
 * the backends it terminates to exit and then refuses (55006, "being accessed by other users"): on a loaded machine
 * a killed process's backends can take longer, so the drop is tried again until a minute has passed.
 */
export async function dropDatabases(services: Services, names: string[]): Promise<void> {
  for (const name of names) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await adminQuery(services.databaseUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== '55006' || Date.now() > deadline) throw err;
      }
    }
  }
}

/** The names of the server's databases that belong to a run, by run. */
async function runDatabases(services: Services): Promise<Map<string, string[]>> {
  const { rows } = await adminQuery(services.databaseUrl, `SELECT datname FROM pg_database WHERE datname LIKE 'sbt%'`);
  const byRun = new Map<string, string[]>();
  for (const { datname } of rows as Array<{ datname: string }>) {
    const run = RUN_OF_DATABASE.exec(datname)?.[1];
    if (run) byRun.set(run, [...(byRun.get(run) ?? []), datname]);
  }
  return byRun;
}

/** Deletes every key that matches one of the glob patterns. */
export async function deleteKeys(redisUrl: string, patterns: string[]): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    for (const pattern of patterns) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
}

/** The runs that have keys in Redis. */
async function runsWithKeys(redisUrl: string): Promise<Set<string>> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => undefined);
  const runs = new Set<string>();
  try {
    await redis.connect();
    for (const pattern of ['sbt-*', '{sbt-*']) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        for (const key of keys) {
          const run = RUN_OF_KEY.exec(key)?.[1];
          if (run) runs.add(run);
        }
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
  return runs;
}

/** Ends a run's processes, drops its databases and deletes its keys. */
export async function endRun(runId: string, services: Services, opts: { workers: boolean }): Promise<void> {
  await endRunProcesses(runId, opts);
  await dropDatabases(services, (await runDatabases(services)).get(runId) ?? []);
  await deleteKeys(services.redisUrl, [`sbt-${runId}-*`, `{sbt-${runId}-*`]);
}

/** Ends every run whose owner is gone (killed, or interrupted before it could end its run), and says which. */
export async function endDeadRuns(services: Services): Promise<string[]> {
  const runs = new Set([
    ...markedProcesses().map((p) => p.run),
    ...(await runDatabases(services)).keys(),
    ...(await runsWithKeys(services.redisUrl)),
  ]);
  const dead = [...runs].filter((run) => new RegExp(`^${RUN_ID}$`).test(run) && !ownerAlive(run));
  for (const run of dead) await endRun(run, services, { workers: true });
  return dead;
}
