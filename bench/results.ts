import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { adminQuery } from '../src/platform/db.js';

// Every bench run is kept as bench/results/<YYYY-MM-DD>-<bench>.json: the figures it printed, the command that
// produced them and the machine they ran on. docs/performance.md quotes these files and the chart is drawn from
// them (bench/p99-chart.ts), so a figure in the docs can always be traced to a run and run again.

export const RESULTS_DIR = 'bench/results';

export interface Machine {
  cores: number;
  cpuModel: string;
  totalMemoryGiB: number;
  node: string;
  postgres: string;
  redis: string;
  /** The 1-minute load average when the bench started: what else was running on the machine. */
  loadAverage1mAtStart: number;
  /** The same when it ended: the bench's own load, and whatever else started meanwhile. */
  loadAverage1mAtEnd?: number;
}

export interface BenchResult {
  bench: string;
  startedAt: string;
  /** The git commit the bench ran from ("+dirty" when the tree had changes). */
  commit: string;
  command: string;
  env: Record<string, string>;
  machine: Machine;
  figures: Record<string, unknown>;
}

/** The settings that change what a bench measures: its own knobs, the service's webhook settings and Node's. */
const SETTING = /^(BENCH_|WEBHOOK_|WORKERS$|NODE_OPTIONS$)/;

export function benchSettings(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env)
      .filter((entry): entry is [string, string] => SETTING.test(entry[0]) && entry[1] !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** The machine as the bench starts: read before its own load begins. */
export async function describeMachine(databaseUrl: string, redisUrl: string): Promise<Machine> {
  const loadAverage1mAtStart = +loadavg()[0]!.toFixed(2);
  const { rows } = await adminQuery(databaseUrl, 'SHOW server_version');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const info = await redis.info('server');
    return {
      cores: availableParallelism(),
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      totalMemoryGiB: +(totalmem() / 2 ** 30).toFixed(1),
      node: process.version,
      postgres: String((rows[0] as { server_version: string }).server_version),
      redis: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
      loadAverage1mAtStart,
    };
  } finally {
    redis.disconnect();
  }
}

function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim();
    return dirty ? `${head}+dirty` : head;
  } catch {
    return 'unknown';
  }
}

/** Writes one run's result; a second run of the same bench on the same day gets -2, -3 … Returns its path. */
export function writeResult(bench: string, started: Date, machine: Machine, figures: Record<string, unknown>): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const stem = `${started.toISOString().slice(0, 10)}-${bench}`;
  let path = join(RESULTS_DIR, `${stem}.json`);
  for (let n = 2; existsSync(path); n++) path = join(RESULTS_DIR, `${stem}-${n}.json`);
  const env = benchSettings();
  const command = [...Object.entries(env).map(([k, v]) => `${k}=${/\s/.test(v) ? `'${v}'` : v}`), 'npm run bench'];
  const result: BenchResult = {
    bench,
    startedAt: started.toISOString(),
    commit: gitCommit(),
    command: command.join(' '),
    env,
    machine: { ...machine, loadAverage1mAtEnd: +loadavg()[0]!.toFixed(2) },
    figures,
  };
  writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`);
  return path;
}

/** Every saved result, oldest first (file names start with the date; the start time orders a day's runs). */
export function readResults(dir = RESULTS_DIR): Array<BenchResult & { file: string }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ ...(JSON.parse(readFileSync(join(dir, f), 'utf8')) as BenchResult), file: join(dir, f) }))
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}
