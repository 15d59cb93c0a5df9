import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { adminQuery } from '../../src/platform/db.js';
import { endChild, spawnChild } from '../helpers/children.js';
import { endDeadRuns, markedProcesses } from '../helpers/leftovers.js';
import { groupRunning, isRunning } from '../helpers/process-tree.js';
import { waitUntil } from '../helpers/wait.js';

// The suite cleans up after itself: a run of the suite's own configuration on a fixture that makes a database,
// Redis keys, a process group and a process started without the helper (test/fixtures/leftovers/) leaves none of
// them once its test fails, its worker is killed, or vitest is interrupted with SIGINT or SIGTERM; and a run killed
// outright (SIGKILL: nothing of it can clean up) is cleaned up by the start of the next run.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = 'test/fixtures/leftovers/vitest.config.ts';
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const dir = mkdtempSync(join(tmpdir(), 'sb-leftovers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const services = { databaseUrl: inject('templateDbUrl'), redisUrl: inject('redisUrl') };

interface Report {
  runId: string;
  database: string;
  prefix: string;
  group: number;
  stray: number;
}

/** What of the run is left: its marked processes, the fixture's group and stray, its databases, its keys. */
async function leftOf(r: Report) {
  const { rows } = await adminQuery(services.databaseUrl, `SELECT datname FROM pg_database WHERE datname LIKE $1`, [
    `sbt%${r.runId}%`,
  ]);
  const redis = new Redis(services.redisUrl);
  try {
    return {
      processes: markedProcesses()
        .filter((p) => p.run === r.runId)
        .map((p) => p.pid),
      group: groupRunning(r.group),
      stray: isRunning(r.stray),
      databases: rows.map((row: { datname: string }) => row.datname),
      keys: (await redis.keys(`*sbt-${r.runId}-*`)).length,
    };
  } finally {
    redis.disconnect();
  }
}

const nothing = { processes: [], group: false, stray: false, databases: [], keys: 0 };

/**
 * Runs the fixture under its own vitest, and awaits `then` once the fixture has made everything; answers what the
 * fixture reported, the run's exit code, and what is left of it once vitest has exited.
 */
async function runFixture(end: 'fail' | 'crash' | 'hang', then: (vitestPid: number) => Promise<void> | void) {
  const report = join(dir, `${end}-${Math.random().toString(36).slice(2)}.json`);
  const vitest = spawnChild(process.execPath, [VITEST, 'run', '--config', CONFIG], {
    cwd: ROOT,
    env: { ...process.env, LEFTOVERS_REPORT: report, LEFTOVERS_END: end },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  vitest.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => vitest.once('exit', (code) => resolve(code)));
  try {
    const made = await waitUntil(
      () => {
        if (vitest.exitCode !== null) throw new Error(`the fixture's run exited ${vitest.exitCode}: ${stderr}`);
        try {
          return JSON.parse(readFileSync(report, 'utf8')) as Report;
        } catch {
          return null;
        }
      },
      120_000,
      `the fixture (${end}) to make its leftovers`,
    );
    await then(vitest.pid!);
    const code = await exited;
    return { made, code, left: await leftOf(made) };
  } catch (err) {
    await endChild(vitest);
    throw err;
  }
}

type Outcome = Awaited<ReturnType<typeof runFixture>>;
const outcomes = new Map<string, Outcome>();

// Five runs at once. The one killed outright is killed only once the others have made their leftovers: by then
// each of them has ended the dead runs it found at its start, so what is left of the killed one is its own to see.
beforeAll(async () => {
  const named = (name: string, run: Promise<Outcome>) => run.then((o) => outcomes.set(name, o));
  let othersMade: () => void = () => undefined;
  const made = new Promise<void>((resolve) => (othersMade = resolve));
  const reported: Array<Promise<void>> = [];
  const reporting = (then: (pid: number) => void = () => undefined) => {
    let said: () => void = () => undefined;
    reported.push(new Promise<void>((resolve) => (said = resolve)));
    return (pid: number) => {
      said();
      then(pid);
    };
  };
  const runs = [
    named('fail', runFixture('fail', reporting())),
    named('crash', runFixture('crash', reporting())),
    named(
      'SIGINT',
      runFixture(
        'hang',
        reporting((pid) => process.kill(pid, 'SIGINT')),
      ),
    ),
    named(
      'SIGTERM',
      runFixture(
        'hang',
        reporting((pid) => process.kill(pid, 'SIGTERM')),
      ),
    ),
  ];
  void Promise.all(reported).then(() => othersMade());
  runs.push(
    named(
      'SIGKILL',
      runFixture('hang', async (pid) => {
        await made;
        process.kill(pid, 'SIGKILL');
      }),
    ),
  );
  await Promise.all(runs);
  // What global-setup does first, for the run killed outright.
  await endDeadRuns(services);
}, 300_000);

describe('what a test run leaves behind', () => {
  it('nothing when a test fails', () => {
    const { made, code, left } = outcomes.get('fail')!;
    expect(code).toBe(1);
    expect(made.database).toMatch(new RegExp(`^sbt_${made.runId}_`));
    expect(made.prefix).toMatch(new RegExp(`^sbt-${made.runId}-`));
    expect(left).toEqual(nothing);
  });

  it('nothing when the worker process running the test is killed', () => {
    const { code, left } = outcomes.get('crash')!;
    expect(code).toBe(1);
    expect(left).toEqual(nothing);
  });

  for (const signal of ['SIGINT', 'SIGTERM']) {
    it(`nothing when vitest (its own process only) is sent ${signal} mid-test`, () => {
      const { code, left } = outcomes.get(signal)!;
      expect(code).not.toBe(0);
      expect(left).toEqual(nothing);
    });
  }

  it('everything of a run killed outright, until the next run starts', async () => {
    const { made, left } = outcomes.get('SIGKILL')!;
    expect(left.group && left.stray).toBe(true);
    expect(left.databases).toContain(made.database);
    expect(left.keys).toBeGreaterThan(0);
    // Ended by the sweep a next run starts with: this file's, or another run's that started first on a busy
    // machine (each sweeps every run whose owner is gone), so which one took it is not asserted.
    expect(await leftOf(made)).toEqual(nothing);
  });
});
