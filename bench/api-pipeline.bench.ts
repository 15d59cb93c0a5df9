import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { Pool } from 'undici';
import { createWorkerRedis } from '../src/platform/redis.js';
import { startReceiver, type Receiver } from '../test/helpers/receiver.js';
import { waitUntil } from '../test/helpers/wait.js';
import { freePort } from '../test/helpers/ports.js';
import type { BenchDeps, Benchmark } from './run.js';
import {
  arrivalLatency,
  pacedWhile,
  percentile,
  processCpuMs,
  refineGap,
  roundAt,
  type RateRound,
  spawnWorkerProcess,
  sustainedRate,
  WEBHOOK_ENV,
  serviceEnv,
} from './webhook-helpers.js';

// Through the HTTP API (docs/performance.md#through-the-http-api-npm-start): one `npm start` as a
// user runs it, `POST /v1/contacts` paced from this process, one subscription to a receiver here (another process
// than the service); latency from the request to the delivery's arrival, and to its response. Floors, in the same
// run and run together at the same rate: (1) the same requests for an account with no subscription, request →
// response; (2) bare BullMQ add → undici POST (bench/bare-worker.ts), add → arrival. Once per WORKERS mode
// (BENCH_API_WORKERS).

const LIMIT_MS = 250;
/** A round past this is saturated: it is not measured again (roundAt). */
const SATURATED_MS = 1000;
const RATES = (process.env.BENCH_API_RATES ?? '100,150,200,300,400,500,600,750,900,1050,1200').split(',').map(Number);
const MODES = (process.env.BENCH_API_WORKERS ?? 'auto,0').split(',');
const SECONDS = Number(process.env.BENCH_LATENCY_S ?? 5);

interface Service {
  proc: ChildProcess;
  url: string;
  /** Every process of the service, by role ("supervisor", "api", "workers"…; "all" with WORKERS=0). */
  pids: Record<string, number>;
  stop(): Promise<void>;
}

/** `npm start` (src/main.ts) on the bench's database and prefix, the way a user starts it; resolves at its banner. */
async function startService(bench: BenchDeps, workers: string): Promise<Service> {
  const { config } = bench.deps;
  const port = await freePort();
  const proc = spawn(process.execPath, ['src/main.ts'], {
    env: serviceEnv(config, { NODE_ENV: 'production', LOG_FORMAT: 'json', PORT: String(port), WORKERS: workers }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const orphan = () => proc.kill('SIGKILL');
  process.once('exit', orphan);
  let banner: string | undefined;
  let pending = '';
  proc.stdout!.on('data', (d: Buffer) => {
    if (banner) return;
    pending += d.toString();
    banner = pending.split('\n').find((l) => l.includes('switchboard listening'));
  });
  const title = await waitUntil(
    () => {
      if (proc.exitCode !== null) throw new Error(`npm start exited with ${proc.exitCode}`);
      return banner && (JSON.parse(banner) as { msg: string }).msg;
    },
    180_000,
    'npm start to listen',
  );
  const pids: Record<string, number> = { supervisor: proc.pid! };
  for (const m of title.matchAll(/(api|workers \+ scheduler) pids? ([\d, ]+)/g)) {
    const role = m[1]!.split(' ')[0]!;
    const found = m[2]!
      .split(',')
      .map((p) => Number(p.trim()))
      .filter(Boolean);
    found.forEach((pid, i) => (pids[`${role}${i || ''}`] = pid));
  }
  // WORKERS=0: "api + workers + scheduler pid N", one process that runs everything.
  if (workers === '0') {
    pids.all = pids.workers!;
    delete pids.workers;
  }
  return {
    proc,
    url: `http://127.0.0.1:${port}`,
    pids,
    async stop() {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
      process.off('exit', orphan);
    },
  };
}

/** A fresh account through the API; with `receiverUrl`, one subscription to it for contact.created. */
async function account(pool: Pool, receiverUrl?: string): Promise<string> {
  const call = async (path: string, body: unknown, token?: string) => {
    const res = await pool.request({
      path,
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    const json = (await res.body.json()) as any;
    if (res.statusCode >= 300) throw new Error(`${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const signup = await call('/v1/auth/signup', { accountName: 'Bench', email, password: 'correct horse battery' });
  const token = signup.session.token as string;
  if (receiverUrl) await call('/v1/webhooks', { url: receiverUrl, events: ['contact.created'] }, token);
  return token;
}

/** POST /v1/contacts with `n` in its metadata; rejects on anything but 201. */
const createContact = (pool: Pool, token: string) => async (n: number) => {
  const res = await pool.request({
    path: '/v1/contacts',
    method: 'POST',
    body: JSON.stringify({ name: `Contact ${n}`, email: `c${n}@example.com`, metadata: { n } }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });
  await res.body.text();
  if (res.statusCode !== 201) throw new Error(`POST /v1/contacts: ${res.statusCode}`);
};

let floorN = 0;

/** Floor 1: request → response of the same requests at `rate`/s, one second of warm-up not counted. */
async function requestLatency(rate: number, fire: (n: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let failed = 0;
  let lastError: string | undefined;
  // Every request gets its own n (a contact's email is unique in its account).
  const round = async (count: number, record: boolean) => {
    const first = floorN;
    floorN += count;
    await pacedWhile(
      rate,
      first,
      (i) => i < count,
      async (n) => {
        const t0 = performance.now();
        await fire(n).then(
          () => record && latencies.push(performance.now() - t0),
          (err: Error) => {
            failed += 1;
            lastError = err.message;
          },
        );
      },
    );
  };
  await round(Math.round(rate), false);
  await round(Math.round(rate * SECONDS), true);
  const sorted = latencies.sort((a, b) => a - b);
  return {
    p50Ms: +percentile(sorted, 50).toFixed(1),
    p99Ms: +percentile(sorted, 99).toFixed(1),
    ...(failed ? { failed, lastError } : {}),
  };
}

const cpuOf = (pids: Record<string, number>) =>
  Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, processCpuMs(pid) ?? 0]));
const rssMbOf = (pid: number) => {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? Math.round(Number(kb) / 1024) : null;
};

/** One WORKERS mode: the floors and the pipeline swept over RATES, CPU per process at 300/s, RSS per process. */
async function measureMode(bench: BenchDeps, receiver: Receiver, workers: string) {
  const service = await startService(bench, workers);
  const pool = new Pool(service.url, { connections: 128, keepAliveTimeout: 10_000 });
  const floor2Path = `/floor2-${workers}`;
  const target = { BENCH_TARGET: `${receiver.url}${floor2Path}` };
  const bare = await spawnWorkerProcess(bench.deps, 'bench/bare-worker.ts', target);
  const connection = createWorkerRedis(bench.deps.config.redis.url);
  const queue = new Queue('bench-bare', { connection, prefix: bench.deps.config.bullmqPrefix });
  try {
    const plainToken = await account(pool);
    const path = `/pipeline-${workers}`;
    const token = await account(pool, `${receiver.url}${path}`);
    const floors: Record<number, unknown> = {};
    const pipeline: Record<number, unknown> = {};
    let cpuAt300: Record<string, number> = {};
    let ratioAt300: number | null = null;
    // A side whose round misses the limit is measured twice more, its median round kept (roundAt).
    const measureFloors = async (rate: number) => {
      const floorRound = await roundAt(
        async () => {
          const [floor1, floor2] = await Promise.all([
            requestLatency(rate, createContact(pool, plainToken)),
            arrivalLatency(receiver, floor2Path, rate, (n) => queue.add('post', { n }, { removeOnComplete: 1000 })),
          ]);
          return { p99Ms: floor1.p99Ms + floor2.p99Ms, floor1, floor2 };
        },
        LIMIT_MS,
        SATURATED_MS,
      );
      const { floor1, floor2, roundsP99Ms } = floorRound;
      floors[rate] = {
        floor1,
        floor2: { p50Ms: floor2.p50Ms, p99Ms: floor2.p99Ms },
        ...(roundsP99Ms ? { roundsP99Ms } : {}),
      };
      return { rate, round: floorRound, held: floorRound.p99Ms <= LIMIT_MS };
    };
    const measurePipeline = async (rate: number) => {
      const result = await roundAt(
        async () => {
          const before = cpuOf(service.pids);
          const round = await arrivalLatency(receiver, path, rate, createContact(pool, token));
          return { ...round, before, after: cpuOf(service.pids) };
        },
        LIMIT_MS,
        SATURATED_MS,
      );
      const { p50Ms, p99Ms, maxMs, arrived, events, failedCommits, roundsP99Ms } = result;
      pipeline[rate] = {
        p50Ms,
        p99Ms,
        // Request → response, to set beside floor 1's (docs/adr/0082-the-response-does-not-wait-for-the-queue.md).
        response: { p50Ms: result.returnedP50Ms, p99Ms: result.returnedP99Ms },
        maxMs,
        arrived,
        events,
        ...(failedCommits ? { failedCommits } : {}),
        ...(roundsP99Ms ? { roundsP99Ms } : {}),
      };
      return { rate, round: result, held: p99Ms <= LIMIT_MS };
    };
    const floorRounds: RateRound<unknown>[] = [];
    const pipelineRounds: RateRound<unknown>[] = [];
    for (const rate of RATES) {
      const floorRound = await measureFloors(rate);
      floorRounds.push(floorRound);
      const pipelineRound = await measurePipeline(rate);
      pipelineRounds.push(pipelineRound);
      const { round } = pipelineRound;
      if (rate === 300) {
        // The goal: p99 request → arrival ≤ 2 × (floor 1 p99 + floor 2 p99).
        ratioAt300 = +(round.p99Ms / floorRound.round.p99Ms).toFixed(2);
        // µs of CPU per event, per process, over the measured round (the warm-up second included in both ends).
        const { before, after, events } = round;
        const usPerEvent = (k: string) => Math.round(((after[k]! - before[k]!) * 1000) / (events + rate));
        cpuAt300 = Object.fromEntries(Object.keys(after).map((k) => [k, usPerEvent(k)]));
      }
      if (rate >= 300 && !pipelineRound.held && !floorRound.held) break;
    }
    // Each side's highest rate up to which every rate kept p99 within the limit, its ladder made finer between
    // that rate and its first miss (refineGap).
    floorRounds.push(...(await refineGap(floorRounds, measureFloors)));
    pipelineRounds.push(...(await refineGap(pipelineRounds, measurePipeline)));
    const rssMb = Object.fromEntries(Object.entries(service.pids).map(([k, pid]) => [k, rssMbOf(pid)]));
    return {
      pids: service.pids,
      floors,
      pipeline,
      p99OverFloorsAt300: ratioAt300,
      floorsHoldPerS: sustainedRate(floorRounds),
      pipelineHoldsPerS: sustainedRate(pipelineRounds),
      cpuUsPerEventAt300: cpuAt300,
      rssMb,
    };
  } finally {
    await queue.close();
    connection.disconnect();
    bare.kill('SIGKILL');
    await pool.close();
    await service.stop();
  }
}

export const apiPipelineBenchmark: Benchmark = {
  id: 'api',
  name: `api: POST /v1/contacts → arrival against npm start (WORKERS ${MODES.join(', ')}) vs the floors, paced rates`,
  async run(env) {
    const bench = await env.createDeps(WEBHOOK_ENV);
    const receiver = await startReceiver();
    try {
      const figures: Record<string, unknown> = {};
      for (const mode of MODES) figures[`workers_${mode}`] = await measureMode(bench, receiver, mode);
      return figures;
    } finally {
      await receiver.close();
      await bench.close();
    }
  },
};
