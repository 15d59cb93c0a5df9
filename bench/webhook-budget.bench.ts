import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { Deps } from '../src/app/deps.js';
import { createWorkerRedis } from '../src/platform/redis.js';
import {
  createDayPartition,
  dayStart,
  listPartitions,
  PARTITIONED_TABLES,
} from '../src/maintenance/partitions.repository.js';
import { DAY_MS } from '../src/maintenance/retention.js';
import { startPrivatePostgres } from '../test/helpers/private-postgres.js';
import { startPrivateRedis } from '../test/helpers/private-redis.js';
import { startReceiver, type Receiver } from '../test/helpers/receiver.js';
import { createBenchEnv } from './bench-env.js';
import { profileWhile, summarizeProfile, type CpuProfile } from './cpu-profile.js';
import type { Benchmark } from './run.js';
import {
  commitEvent,
  countAttempts,
  machineCpuMs,
  owner,
  paced,
  processCpuMs,
  spawnWorkerProcess,
  subscriber,
  WEBHOOK_ENV,
} from './webhook-helpers.js';

// The per-event budget of the delivery pipeline (docs/performance.md): events committed one per transaction at a
// paced rate by this process (the API side) and delivered by the service's workers in their own process, on a
// Postgres and a Redis of the bench's own, so that every CPU tick of the servers is this pipeline's. Reported per
// event: CPU of each process (/proc) and of Postgres's backends by the side they serve, Postgres time and WAL per
// statement (pg_stat_statements) and WAL by kind of record (pg_walinspect), Redis calls and time per command (INFO
// commandstats), and each node process's CPU profile split by part. The CPU is taken in a round without the
// profiler; a second round, profiled, only splits it by part. The floor, at the same rate and the same way: the
// same commits for an account with no subscription, and bare BullMQ jobs POSTed by bench/bare-worker.ts, each part
// measured alone (the goal's floor is their sum), then both at once (this process profiled in a second round).

const RATE = Number(process.env.BENCH_BUDGET_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_BUDGET_S ?? 10);
/**
 * BENCH_BUDGET_ROUNDS: rounds of the pipeline and its floor, alternating; the ratio reported is the median round's.
 * One round's ratio moves by ±0.1 from one run to the next on this shared machine. The first round is the one
 * detailed (statements, Redis commands, profile).
 */
const ROUNDS = Number(process.env.BENCH_BUDGET_ROUNDS ?? 3);
/**
 * BENCH_BUDGET_PAST_DAYS: day partitions to create before today, empty, as a service has them after that many days
 * (30 at the default retention). A fresh database has only today's and the days ahead (15); a statement whose
 * plan starts a scan of every day partition costs more with each (docs/plans.md#day-partitions-pruned-at-start).
 */
const PAST_DAYS = Number(process.env.BENCH_BUDGET_PAST_DAYS ?? 0);
/**
 * BENCH_BUDGET_FSYNC: `on` runs the private Postgres with fsync on, as a service's runs, so that each commit's WAL
 * flush is in the machine's CPU; `off` (the default) leaves it out (docs/performance.md#how-the-figures-are-taken).
 */
const FSYNC = process.env.BENCH_BUDGET_FSYNC ?? 'off';
if (FSYNC !== 'on' && FSYNC !== 'off') throw new Error(`BENCH_BUDGET_FSYNC is on or off, not ${FSYNC}`);
/** BENCH_PROFILE_DIR keeps the profiles (open them in Chrome's DevTools or speedscope). */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;

/** The round whose `ratio` is the median of the rounds'. */
const medianBy = <R>(rounds: R[], ratio: (r: R) => number): R =>
  [...rounds].sort((a, b) => ratio(a) - ratio(b))[Math.floor(rounds.length / 2)]!;

interface Processes {
  bench: number;
  worker?: number;
  /** The postmaster: its children are the backends and background processes of the bench's own Postgres. */
  postmaster: number;
  redis: number;
}

const cpuOf = (pid: number) => processCpuMs(pid) ?? 0;
const parentOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);

/**
 * What a Postgres child process is, from the title Postgres gives it: a backend serving a connection (titled by
 * its user), or a background process ("autovacuum worker", "walwriter", "checkpointer"…).
 */
function postgresKind(pid: number): string {
  const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .replace(/\0/g, ' ')
    .replace(/^postgres: /, '');
  return /^postgres \S+ /.test(title) ? 'backends' : title.replace(/ (launcher|worker).*$/, ' $1').trim();
}

/** The children of `ppid` (Linux /proc), with the CPU each has used so far and its kind. */
function childrenCpu(ppid: number): Map<number, { ms: number; kind: string }> {
  const out = new Map<number, { ms: number; kind: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const pid = Number(name);
      if (parentOf(readFileSync(`/proc/${name}/stat`, 'utf8')) === ppid)
        out.set(pid, { ms: cpuOf(pid), kind: postgresKind(pid) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function snapshot(p: Processes) {
  return {
    bench: cpuOf(p.bench),
    worker: p.worker ? cpuOf(p.worker) : 0,
    postgres: childrenCpu(p.postmaster),
    redis: cpuOf(p.redis),
  };
}

/**
 * Which side a backend serves, by the name its process gave the connection (pg_stat_activity.application_name):
 * the service's workers (`switchboard-workers`), or this process, the committing side.
 */
async function backendSides(deps: Deps): Promise<Map<number, string>> {
  const { rows } = await deps.db.raw<{ rows: Array<{ pid: number; application_name: string }> }>(
    `SELECT pid, application_name FROM pg_stat_activity WHERE backend_type = 'client backend'`,
  );
  return new Map(rows.map((r) => [r.pid, r.application_name === 'switchboard-workers' ? 'workers' : 'committing']));
}

/**
 * µs of CPU per event by process, from two snapshots; a backend started meanwhile counts from zero. Postgres's
 * backends are also split by the side they serve (`sides`, read at the end).
 */
function perEvent(
  before: ReturnType<typeof snapshot>,
  after: ReturnType<typeof snapshot>,
  events: number,
  sides: Map<number, string>,
) {
  const us = (ms: number) => Math.round((ms * 1000) / events);
  const postgresByKind: Record<string, number> = {};
  const backendsBySide: Record<string, number> = {};
  for (const [pid, { ms, kind }] of after.postgres) {
    const used = ms - (before.postgres.get(pid)?.ms ?? 0);
    postgresByKind[kind] = (postgresByKind[kind] ?? 0) + used;
    if (kind !== 'backends') continue;
    // A backend gone before the end was read (a connection closed meanwhile) cannot be told apart.
    const side = sides.get(pid) ?? 'unknown';
    backendsBySide[side] = (backendsBySide[side] ?? 0) + used;
  }
  const out = {
    bench: us(after.bench - before.bench),
    worker: us(after.worker - before.worker),
    postgres: us(Object.values(postgresByKind).reduce((a, b) => a + b, 0)),
    redis: us(after.redis - before.redis),
  };
  const byKind = Object.entries(postgresByKind).filter(([, ms]) => us(ms) > 0);
  return {
    cpu: { ...out, total: out.bench + out.worker + out.postgres + out.redis },
    // Postgres's CPU split by process: the backends serving connections, autovacuum, the WAL writer…
    postgresByKind: Object.fromEntries(byKind.map(([kind, ms]) => [kind, us(ms)])),
    backendsBySide: Object.fromEntries(Object.entries(backendsBySide).map(([side, ms]) => [side, us(ms)])),
  };
}

const STEPS: Array<[string, RegExp]> = [
  ['transaction (BEGIN/COMMIT)', /^(BEGIN|COMMIT)/i],
  ['fan-out insert', /INSERT INTO events/],
  ['load', /JOIN webhooks w ON w\.id = d\.webhook_id/],
  ['record + transition', /webhook_attempts/],
  ['stats', /webhook_stats/],
];

async function statements(deps: Deps, events: number) {
  const { rows } = await deps.db
    .raw(`SELECT query, calls, total_exec_time, wal_bytes, plans, total_plan_time FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY total_exec_time DESC`);
  type Step = {
    callsPerEvent: number;
    execUsPerEvent: number;
    walBytesPerEvent: number;
    plansPerEvent: number;
    planUsPerEvent: number;
  };
  const steps: Record<string, Step> = {};
  type Row = {
    query: string;
    calls: string;
    total_exec_time: number;
    wal_bytes: string;
    plans: string;
    total_plan_time: number;
  };
  for (const r of rows as Row[]) {
    const step = STEPS.find(([, re]) => re.test(r.query))?.[0] ?? `other: ${r.query.replace(/\s+/g, ' ').slice(0, 60)}`;
    const s = (steps[step] ??= {
      callsPerEvent: 0,
      execUsPerEvent: 0,
      walBytesPerEvent: 0,
      plansPerEvent: 0,
      planUsPerEvent: 0,
    });
    s.callsPerEvent += Number(r.calls) / events;
    s.execUsPerEvent += (r.total_exec_time * 1000) / events;
    s.walBytesPerEvent += Number(r.wal_bytes) / events;
    s.plansPerEvent += Number(r.plans) / events;
    s.planUsPerEvent += (r.total_plan_time * 1000) / events;
  }
  for (const s of Object.values(steps)) {
    s.callsPerEvent = +s.callsPerEvent.toFixed(2);
    s.execUsPerEvent = Math.round(s.execUsPerEvent);
    s.walBytesPerEvent = Math.round(s.walBytesPerEvent);
    s.plansPerEvent = +s.plansPerEvent.toFixed(2);
    s.planUsPerEvent = Math.round(s.planUsPerEvent);
  }
  // Statements under 2 µs an event are left out.
  return Object.fromEntries(Object.entries(steps).filter(([, s]) => s.execUsPerEvent >= 2 || !s.execUsPerEvent));
}

async function redisCommands(admin: Redis, events: number) {
  const info = await admin.info('commandstats');
  const out: Record<string, { callsPerEvent: number; usPerEvent: number }> = {};
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    const calls = Number(m[2]) / events;
    if (calls >= 0.01) out[m[1]!] = { callsPerEvent: +calls.toFixed(2), usPerEvent: Math.round(Number(m[3]) / events) };
  }
  return out;
}

/**
 * Each part's share of a profile, applied to the CPU the process used (/proc): a sample's time is wall-clock
 * time, which a loaded machine stretches, so only the shares are kept.
 */
function profileParts(profile: CpuProfile, cpuUsPerEvent: number) {
  const { totalMs, parts } = summarizeProfile(profile);
  const sorted = Object.entries(parts).sort((a, b) => b[1] - a[1]);
  return Object.fromEntries(sorted.map(([k, ms]) => [k, Math.round((ms / totalMs) * cpuUsPerEvent)]));
}

async function waitForArrivals(receiver: Receiver, path: string, n: number) {
  const deadline = Date.now() + 60_000;
  while (receiver.received.filter((r) => r.path === path).length < n) {
    if (Date.now() > deadline)
      throw new Error(`only ${receiver.received.filter((r) => r.path === path).length} of ${n} arrived`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Runs one measured round. A round that profiles calls `stop()` when its work is done and before it stops the
 * profilers: writing out a profile is the bench's work, not the pipeline's, and the floor's rounds have none.
 */
async function measure(
  deps: Deps,
  admin: Redis,
  procs: Processes,
  events: number,
  round: (stop: () => void) => Promise<void>,
) {
  await deps.db.raw('SELECT pg_stat_statements_reset()');
  await admin.config('RESETSTAT');
  const walFrom = await walPosition(deps);
  const before = snapshot(procs);
  const machineFrom = machineCpuMs();
  const started = performance.now();
  let after: ReturnType<typeof snapshot> | undefined;
  let machineTo: number | null = null;
  let seconds = 0;
  const stop = () => {
    seconds = (performance.now() - started) / 1000;
    after ??= snapshot(procs);
    machineTo ??= machineCpuMs();
  };
  await round(stop);
  if (!after) stop();
  const { cpu, postgresByKind, backendsBySide } = perEvent(before, after!, events, await backendSides(deps));
  return {
    cpuUsPerEvent: cpu,
    // Everything the machine ran meanwhile (/proc/stat), the kernel's own threads among it (the WAL's disk writes
    // with fsync on), and whatever else ran: a check on the per-process figures above, not the goal's figure.
    wholeMachineUsPerEvent:
      machineFrom === null || machineTo === null ? null : Math.round(((machineTo - machineFrom) * 1000) / events),
    postgresUsPerEvent: postgresByKind,
    postgresBackendsUsPerEvent: backendsBySide,
    seconds: +seconds.toFixed(2),
    statements: await statements(deps, events),
    walByRecord: await walByRecord(deps, walFrom, events),
    redis: await redisCommands(admin, events),
  };
}

const walPosition = async (deps: Deps): Promise<string> =>
  (await deps.db.raw<{ rows: Array<{ lsn: string }> }>('SELECT pg_current_wal_insert_lsn() AS lsn')).rows[0]!.lsn;

/**
 * The WAL written since `from`, per event by kind of record (pg_walinspect): what each row, index entry, lock and
 * commit of the round cost in WAL, all processes together, up to what is flushed (pg_walinspect reads no further;
 * every commit of the round has flushed its own). Kinds under 20 bytes an event are left out.
 */
async function walByRecord(deps: Deps, from: string, events: number) {
  const flushed = await deps.db.raw<{ rows: Array<{ past: boolean }> }>(
    'SELECT pg_current_wal_flush_lsn() > ?::pg_lsn AS past',
    [from],
  );
  // A round that wrote no WAL (the bare BullMQ floor's).
  if (!flushed.rows[0]!.past) return {};
  const { rows } = await deps.db.raw<{ rows: Array<{ kind: string; count: string; bytes: string }> }>(
    `SELECT "resource_manager/record_type" AS kind, count, combined_size AS bytes
       FROM pg_get_wal_stats(?::pg_lsn, pg_current_wal_flush_lsn(), true) ORDER BY combined_size DESC`,
    [from],
  );
  return Object.fromEntries(
    rows
      .filter((r) => Number(r.bytes) / events >= 20)
      .map((r) => [
        r.kind,
        { perEvent: +(Number(r.count) / events).toFixed(2), bytesPerEvent: Math.round(Number(r.bytes) / events) },
      ]),
  );
}

/**
 * The pipeline: commits at RATE/s here, the service's workers in their own process. With `profiled`, the round
 * is run again with both node processes profiled, to split its CPU by part.
 */
async function pipeline(deps: Deps, admin: Redis, receiver: Receiver, procs: Processes, profiled: boolean) {
  const path = `/budget/${randomBytes(3).toString('hex')}`;
  const { principal, webhookId } = await subscriber(deps, 10, `${receiver.url}${path}`, 'message.sent');
  const dir = mkdtempSync(join(tmpdir(), 'sb-budget-'));
  const out = join(dir, 'worker.cpuprofile');
  const worker = await spawnWorkerProcess(deps, 'bench/profiled-worker.ts', { BENCH_PROFILE_OUT: out });
  try {
    const commit = commitEvent(deps, principal.accountId);
    const warm = Math.round(RATE * 2);
    await paced(RATE, 0, warm, commit);
    await waitForArrivals(receiver, path, warm);
    while ((await countAttempts(deps, webhookId)) < warm) await new Promise((r) => setTimeout(r, 20));
    const n = RATE * SECONDS;
    const delivered = async (upTo: number) => {
      await waitForArrivals(receiver, path, upTo);
      while ((await countAttempts(deps, webhookId)) < upTo) await new Promise((r) => setTimeout(r, 5));
    };
    const withWorker = { ...procs, worker: worker.pid! };
    // Measured without the profilers: sampling every 200 µs costs each node process CPU the floor does not pay.
    const measured = await measure(deps, admin, withWorker, n, async () => {
      await paced(RATE, warm, n, commit);
      await delivered(warm + n);
    });
    if (!profiled) return measured;
    // The same round again, profiled: its shares split the unprofiled round's CPU by part.
    let api: CpuProfile | undefined;
    const profiledRound = await measure(deps, admin, withWorker, n, async (stop) => {
      worker.kill('SIGUSR2');
      const { profile } = await profileWhile(async () => {
        await paced(RATE, warm + n, n, commit);
        await delivered(warm + 2 * n);
        stop();
      });
      const written = new Promise((resolve) =>
        worker.stdout!.on('data', (d: Buffer) => d.toString().includes('profiled') && resolve(undefined)),
      );
      worker.kill('SIGUSR1');
      await written;
      api = profile;
    });
    const worked = JSON.parse(readFileSync(out, 'utf8')) as CpuProfile;
    if (PROFILE_DIR) {
      writeFileSync(join(PROFILE_DIR, 'api.cpuprofile'), JSON.stringify(api));
      writeFileSync(join(PROFILE_DIR, 'worker.cpuprofile'), JSON.stringify(worked));
    }
    const profileUs = {
      bench: profileParts(api!, measured.cpuUsPerEvent.bench),
      worker: profileParts(worked, measured.cpuUsPerEvent.worker),
    };
    return { ...measured, profiledCpuUsPerEvent: profiledRound.cpuUsPerEvent, profileUs };
  } finally {
    worker.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One part of the floor at RATE/s: warmed up for two seconds, then run for a round (0: the measured one). */
interface FloorPart {
  warm: () => Promise<unknown>;
  run: (round: number) => Promise<unknown>;
  /** The part's worker process, if it has one. */
  worker?: number;
  close: () => Promise<void>;
}

/** The floor's first part: the same commits for an account with no subscription. */
async function commitPart(deps: Deps): Promise<FloorPart> {
  const principal = await owner(deps, 11);
  const commit = commitEvent(deps, principal.accountId);
  const warm = RATE * 2;
  const n = RATE * SECONDS;
  return {
    warm: () => paced(RATE, 0, warm, commit),
    run: (round) => paced(RATE, warm + round * n, n, commit),
    close: async () => undefined,
  };
}

/** The floor's second part: bare BullMQ jobs added one by one here and POSTed by a bare worker process. */
async function barePart(deps: Deps, receiver: Receiver): Promise<FloorPart> {
  const path = `/bare/${randomBytes(3).toString('hex')}`;
  const worker: ChildProcess = await spawnWorkerProcess(deps, 'bench/bare-worker.ts', {
    BENCH_TARGET: `${receiver.url}${path}`,
  });
  const connection = createWorkerRedis(deps.config.redis.url);
  const queue = new Queue('bench-bare', { connection, prefix: deps.config.bullmqPrefix });
  const add = (n: number) => queue.add('post', { n }, { removeOnComplete: { count: 1000 } });
  const warm = RATE * 2;
  const n = RATE * SECONDS;
  return {
    warm: async () => {
      await paced(RATE, 0, warm, add);
      await waitForArrivals(receiver, path, warm);
    },
    run: async (round) => {
      await paced(RATE, warm + round * n, n, add);
      await waitForArrivals(receiver, path, warm + (round + 1) * n);
    },
    worker: worker.pid!,
    close: async () => {
      worker.kill('SIGKILL');
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    },
  };
}

/**
 * A round of the floor: its `parts` warmed up, then run side by side and measured together, per event. One part
 * at a time is the goal's floor (the parts measured apart and added); both at once share the machine as the
 * pipeline's processes do, as the rate sweep's floor runs (docs/adr/0077-floor-together.md). With `profiled`,
 * the parts run once more with this process profiled, to split its CPU by part as the pipeline's is.
 */
async function floorRound(deps: Deps, admin: Redis, procs: Processes, parts: FloorPart[], profiled = false) {
  try {
    await Promise.all(parts.map((p) => p.warm()));
    const worker = parts.find((p) => p.worker)?.worker;
    const measured = await measure(deps, admin, { ...procs, worker }, RATE * SECONDS, async () => {
      await Promise.all(parts.map((p) => p.run(0)));
    });
    if (!profiled) return measured;
    const { profile } = await profileWhile(() => Promise.all(parts.map((p) => p.run(1))));
    if (PROFILE_DIR) writeFileSync(join(PROFILE_DIR, 'floor.cpuprofile'), JSON.stringify(profile));
    return { ...measured, profileUs: { bench: profileParts(profile, measured.cpuUsPerEvent.bench) } };
  } finally {
    for (const p of parts) await p.close();
  }
}

export const webhookBudgetBenchmark: Benchmark = {
  id: 'budget',
  name: `webhook-budget: CPU per event per process, statement and profile part at ${RATE}/s, pipeline vs floor (private Postgres + Redis)`,
  async run() {
    const pgServer = await startPrivatePostgres({
      fsync: FSYNC,
      shared_preload_libraries: 'pg_stat_statements',
      'pg_stat_statements.track': 'top',
      // Planning time and plans per call: a named statement that keeps a generic plan is planned once per connection.
      'pg_stat_statements.track_planning': 'on',
    });
    const redisServer = await startPrivateRedis();
    const env = createBenchEnv(
      pgServer.urlFor('postgres'),
      redisServer.url,
      `${process.pid}_${randomBytes(3).toString('hex')}`,
    );
    const admin = new Redis(redisServer.url);
    const receiver = await startReceiver();
    try {
      const { deps, close } = await env.createDeps(WEBHOOK_ENV);
      try {
        await deps.db.raw('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
        await deps.db.raw('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
        const today = dayStart(new Date());
        for (let d = 1; d <= PAST_DAYS; d++)
          for (const table of PARTITIONED_TABLES)
            await createDayPartition(deps.db, table, new Date(today.getTime() - d * DAY_MS));
        const partitions = (await listPartitions(deps.db, 'webhook_deliveries')).length;
        const redisPid = Number(/process_id:(\d+)/.exec(await admin.info('server'))![1]);
        const { rows } = await deps.db.raw('SELECT pg_backend_pid() AS pid');
        const backend = (rows as Array<{ pid: number }>)[0]!.pid;
        const procs: Processes = {
          bench: process.pid,
          postmaster: parentOf(readFileSync(`/proc/${backend}/stat`, 'utf8')),
          redis: redisPid,
        };
        const rounds = [];
        for (let i = 0; i < ROUNDS; i++) {
          const piped = await pipeline(deps, admin, receiver, procs, i === 0);
          const commits = await floorRound(deps, admin, procs, [await commitPart(deps)]);
          const bare = await floorRound(deps, admin, procs, [await barePart(deps, receiver)]);
          const together = await floorRound(
            deps,
            admin,
            procs,
            [await commitPart(deps), await barePart(deps, receiver)],
            i === 0,
          );
          const pipelineUs = piped.cpuUsPerEvent.total;
          const floorUs = commits.cpuUsPerEvent.total + bare.cpuUsPerEvent.total;
          const floorTogetherUs = together.cpuUsPerEvent.total;
          const whole = [piped, commits, bare, together].map((r) => r.wholeMachineUsPerEvent);
          const summary = {
            pipelineUs,
            floorUs,
            ratio: +(pipelineUs / floorUs).toFixed(2),
            floorTogetherUs,
            ratioTogether: +(pipelineUs / floorTogetherUs).toFixed(2),
            wholeMachine: whole.every((us) => us !== null)
              ? { pipelineUs: whole[0]!, floorUs: whole[1]! + whole[2]!, floorTogetherUs: whole[3]! }
              : null,
          };
          rounds.push({ piped, commits, bare, together, summary });
        }
        const [first] = rounds;
        const median = medianBy(rounds, (r) => r.summary.ratio).summary;
        const medianTogether = medianBy(rounds, (r) => r.summary.ratioTogether).summary;
        return {
          rate: RATE,
          seconds: SECONDS,
          fsync: FSYNC,
          dayPartitionsPerTable: partitions,
          // The first round, in detail.
          pipeline: first!.piped,
          floor_commit_only: first!.commits,
          floor_bare_bullmq_post: first!.bare,
          floor_together: first!.together,
          cpu_us_per_event_rounds: rounds.map((r) => r.summary),
          // The goal's figure: the median round.
          cpu_us_per_event: { pipeline: median.pipelineUs, floor: median.floorUs, ratio: median.ratio },
          // Against the floor's parts run together, the median round by that ratio.
          cpu_us_per_event_together: {
            pipeline: medianTogether.pipelineUs,
            floor: medianTogether.floorTogetherUs,
            ratio: medianTogether.ratioTogether,
          },
        };
      } finally {
        await close();
      }
    } finally {
      await receiver.close();
      admin.disconnect();
      await env.dropAll();
      await redisServer.destroy();
      pgServer.destroy();
    }
  },
};
