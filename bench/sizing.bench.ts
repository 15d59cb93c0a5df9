import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Deps } from '../src/app/deps.js';
import { addDeliveryJobs } from '../src/delivery/schedule.js';
import { startReceiver, type Receiver } from '../test/helpers/receiver.js';
import { seedTraffic } from '../test/helpers/seed-traffic.js';
import type { Benchmark } from './run.js';
import { retainedTraffic, tableSizes } from './table-sizes.js';
import {
  commitEvent,
  commitEvents,
  machineCpuMs,
  processCpuMs,
  spawnWorkerProcess,
  subscriber,
  WEBHOOK_ENV,
} from './webhook-helpers.js';

// Sizing (docs/scaling.md): the figures a capacity plan multiplies.
//   - bytes per event, delivery and attempt row, indexes included (BENCH_SIZING_ROWS rows per table, seeded as
//     the scale bench seeds them, over the retention's days);
//   - Redis bytes per queued delivery job and per delayed one (a scheduled retry), with the service's job
//     options, summed with MEMORY USAGE over this run's keys (exact), and INFO used_memory's delta (the whole
//     server; noisy on a shared Redis);
//   - deliveries/s of one worker process (the service's workers as deployed) draining a backlog, between its 10th
//     and 90th percentile of arrivals, with the CPU per delivery of that process, of this database's Postgres
//     backends, of the Redis server and of the whole machine (shared: other work on it counts there);
//   - the API side of an event: single-event transactions (event + one delivery row + its job) committed by 20
//     concurrent callers, with this process's CPU per event.

const ROWS = Number(process.env.BENCH_SIZING_ROWS ?? 200_000);
const JOBS = Number(process.env.BENCH_SIZING_JOBS ?? 10_000);
const DRAIN = Number(process.env.BENCH_SIZING_DRAIN ?? 10_000);
const COMMIT_S = Number(process.env.BENCH_SIZING_COMMIT_S ?? 5);

/** A UUIDv7 for `at`, as the service's delivery ids are. */
function uuidV7(at: number): string {
  const hex = at.toString(16).padStart(12, '0') + randomBytes(10).toString('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Bytes held by this run's BullMQ keys (MEMORY USAGE … SAMPLES 0, every element counted), by kind of key. */
async function prefixBytes(
  redis: Redis,
  prefix: string,
): Promise<{ jobs: number; jobBytes: number; otherBytes: number; byKey: Record<string, number> }> {
  let cursor = '0';
  const out = { jobs: 0, jobBytes: 0, otherBytes: 0, byKey: {} as Record<string, number> };
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length === 0) continue;
    const pipe = redis.pipeline();
    for (const key of keys) pipe.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
    const res = (await pipe.exec()) ?? [];
    keys.forEach((key, i) => {
      const bytes = Number(res[i]?.[1] ?? 0);
      const rest = key.slice(prefix.length + 1);
      // A job hash is <queue>:<job id>; the queue's own structures are <queue>:wait, :delayed, :events, :meta, …
      if (/^[a-z-]+:[0-9a-f-]{36}\.\d+$/.test(rest)) {
        out.jobs += 1;
        out.jobBytes += bytes;
      } else {
        out.otherBytes += bytes;
        out.byKey[rest] = bytes;
      }
    });
  } while (cursor !== '0');
  return out;
}

async function usedMemory(redis: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
}

/** Redis bytes per delivery job: `JOBS` jobs added as the fan-out adds them, waiting (delay 0) or delayed. */
async function redisPerJob(deps: Deps, redis: Redis, delayMs: number) {
  const prefix = deps.config.bullmqPrefix;
  await deps.queues['webhook-delivery'].obliterate({ force: true });
  const before = await prefixBytes(redis, prefix);
  const usedBefore = await usedMemory(redis);
  const now = Date.now();
  for (let i = 0; i < JOBS; i += 1000) {
    const armed = Array.from({ length: Math.min(1000, JOBS - i) }, (_, k) => ({
      id: uuidV7(now - (i + k)),
      job_seq: 1,
      webhook_id: uuidV7(now),
    }));
    await addDeliveryJobs(deps, armed, delayMs);
  }
  const after = await prefixBytes(redis, prefix);
  const usedAfter = await usedMemory(redis);
  await deps.queues['webhook-delivery'].obliterate({ force: true });
  const structures = Object.fromEntries(
    Object.entries(after.byKey)
      .map(([k, v]) => [k, v - (before.byKey[k] ?? 0)])
      .filter(([, v]) => Number(v) !== 0),
  );
  const total = after.jobBytes + after.otherBytes - before.jobBytes - before.otherBytes;
  const eventsStream = Number(structures['webhook-delivery:events'] ?? 0);
  return {
    jobs: after.jobs - before.jobs,
    jobHashBytes: Math.round((after.jobBytes - before.jobBytes) / JOBS),
    // The wait list or delayed set, and the rest, without the events stream (capped at ~10,000 entries, not per job).
    bytesPerJobWithoutEventsStream: Math.round((total - eventsStream) / JOBS),
    bytesPerJob: Math.round(total / JOBS),
    eventsStreamBytes: eventsStream,
    structuresBytes: structures,
    usedMemoryDeltaPerJob: Math.round((usedAfter - usedBefore) / JOBS),
  };
}

/** CPU used so far by this database's Postgres backends (their pids from pg_stat_activity; Linux only). */
async function postgresCpu(deps: Deps): Promise<Map<number, number>> {
  const { rows } = await deps.db.raw(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  const out = new Map<number, number>();
  for (const { pid } of rows as Array<{ pid: number }>) {
    const ms = processCpuMs(pid);
    if (ms !== null) out.set(pid, ms);
  }
  return out;
}

/** Postgres CPU ms between two postgresCpu() readings (backends present at both; pools keep theirs open). */
const postgresCpuMs = (a: Map<number, number>, b: Map<number, number>) =>
  [...b].reduce((sum, [pid, ms]) => sum + (a.has(pid) ? ms - a.get(pid)! : 0), 0);

/** Redis server CPU ms so far (INFO cpu; the whole server, shared with whatever else uses it). */
async function redisCpuMs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  return (Number(/used_cpu_user:([\d.]+)/.exec(info)![1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)![1])) * 1000;
}

/** One worker process draining a backlog of `DRAIN` deliveries: rate and CPU between 10 % and 90 % of arrivals. */
async function workerProcessRate(deps: Deps, redis: Redis, receiver: Receiver) {
  const { principal } = await subscriber(deps, 5, `${receiver.url}/w`, 'message.received');
  await commitEvents(deps, principal.accountId, DRAIN);
  receiver.received.length = 0;
  const worker = await spawnWorkerProcess(deps);
  try {
    const mark = async (n: number) => {
      await receiver.waitFor(n, 300_000);
      return {
        at: performance.now(),
        proc: processCpuMs(worker.pid!),
        machine: machineCpuMs(),
        pg: await postgresCpu(deps),
        redis: await redisCpuMs(redis),
      };
    };
    const lo = Math.round(DRAIN * 0.1);
    const hi = Math.round(DRAIN * 0.9);
    const a = await mark(lo);
    const b = await mark(hi);
    const seconds = (b.at - a.at) / 1000;
    const count = hi - lo;
    const cpu =
      a.proc !== null && b.proc !== null && a.machine !== null && b.machine !== null
        ? {
            workerProcessCoresBusy: +((b.proc - a.proc) / 1000 / seconds).toFixed(2),
            machineCoresBusy: +((b.machine - a.machine) / 1000 / seconds).toFixed(2),
            deliveriesPerWorkerCpuSecond: Math.round(count / ((b.proc - a.proc) / 1000)),
            deliveriesPerMachineCpuSecond: Math.round(count / ((b.machine - a.machine) / 1000)),
            workerCpuUsPerDelivery: Math.round(((b.proc - a.proc) * 1000) / count),
            postgresCpuUsPerDelivery: Math.round((postgresCpuMs(a.pg, b.pg) * 1000) / count),
            redisCpuUsPerDelivery: Math.round(((b.redis - a.redis) * 1000) / count),
          }
        : {};
    return { deliveriesPerS: Math.round(count / seconds), deliveries: count, ...cpu };
  } finally {
    worker.kill('SIGKILL');
  }
}

/** The API side: single-event transactions from 20 concurrent callers for COMMIT_S seconds, no workers running. */
async function commitCost(deps: Deps, redis: Redis, receiver: Receiver) {
  const { principal } = await subscriber(deps, 6, `${receiver.url}/x`, 'message.sent');
  const commit = commitEvent(deps, principal.accountId);
  let n = 0;
  const loop = async (until: number) => {
    while (performance.now() < until) await commit(n++);
  };
  await Promise.all(Array.from({ length: 20 }, () => loop(performance.now() + 1000)));
  n = 0;
  const cpu0 = process.cpuUsage();
  const machine0 = machineCpuMs();
  const pg0 = await postgresCpu(deps);
  const redis0 = await redisCpuMs(redis);
  const started = performance.now();
  await Promise.all(Array.from({ length: 20 }, () => loop(started + COMMIT_S * 1000)));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const machine1 = machineCpuMs();
  const pg1 = await postgresCpu(deps);
  const redis1 = await redisCpuMs(redis);
  await deps.queues['webhook-delivery'].obliterate({ force: true });
  return {
    eventsPerS: Math.round(n / seconds),
    apiProcessCpuUsPerEvent: Math.round((cpu.user + cpu.system) / n),
    apiProcessCoresBusy: +((cpu.user + cpu.system) / 1e6 / seconds).toFixed(2),
    postgresCpuUsPerEvent: Math.round((postgresCpuMs(pg0, pg1) * 1000) / n),
    redisCpuUsPerEvent: Math.round(((redis1 - redis0) * 1000) / n),
    ...(machine0 !== null && machine1 !== null
      ? { machineCpuUsPerEvent: Math.round(((machine1 - machine0) * 1000) / n) }
      : {}),
  };
}

export const sizingBenchmark: Benchmark = {
  id: 'sizing',
  name: `sizing: bytes per row at ${ROWS} rows, Redis bytes per queued and delayed job, deliveries/s per worker process, API CPU per event`,
  async run(env) {
    const { deps, close } = await env.createDeps(WEBHOOK_ENV);
    const redis = new Redis(deps.config.redis.url);
    const receiver = await startReceiver();
    try {
      await seedTraffic(deps, retainedTraffic(ROWS, deps.config.webhooks.retentionDays));
      const rows = await tableSizes(deps.db, ROWS);
      const queued = await redisPerJob(deps, redis, 0);
      const delayed = await redisPerJob(deps, redis, 60_000);
      const worker = await workerProcessRate(deps, redis, receiver);
      const api = await commitCost(deps, redis, receiver);
      return {
        bytes_per_row_with_indexes: rows,
        redis_per_queued_delivery_job: queued,
        redis_per_delayed_delivery_job: delayed,
        one_worker_process: worker,
        api_commit_one_event_per_transaction: api,
        settings: {
          rows: ROWS,
          jobs: JOBS,
          drained: DRAIN,
          concurrency: deps.config.webhooks.concurrency,
          commitSeconds: COMMIT_S,
        },
      };
    } finally {
      await receiver.close();
      redis.disconnect();
      await close();
    }
  },
};
