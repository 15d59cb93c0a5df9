import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Queue, Worker } from 'bullmq';
import { Agent, request } from 'undici';
import type { SessionPrincipal } from '../src/auth/principal.js';
import { signup } from '../src/accounts/accounts.service.js';
import { transactWithEvents } from '../src/webhooks/outbox.js';
import type { Deps } from '../src/platform/deps.js';
import { createWorkerRedis } from '../src/platform/redis.js';
import { createWebhook } from '../src/webhooks/webhooks.service.js';
import { startWorkers } from '../workers/index.js';
import { startReceiver, type Receiver } from '../test/helpers/receiver.js';
import type { Benchmark } from './run.js';

// Webhooks (issue 5): (a) end-to-end deliveries/s, event and delivery rows committed → delivery job → signed
// POST → attempt row; (b) the same number of bare BullMQ jobs whose processor only POSTs with undici; (c) commit →
// arrival latency at half of (a)'s rate (and, for context, at a quarter); (d) one event fanned out to 1,000
// subscriptions.
// Goals: (a) >= 0.6 x (b) and >= 1,500/s; (c) p99 <= 100 ms; (d) <= 3 s.

const N = Number(process.env.BENCH_WEBHOOK_N ?? 6000);
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 100);
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_S ?? 5);
const FANOUT = 1000;
const WARMUP = Math.max(500, Math.round(N / 6));

const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_CONCURRENCY: String(CONCURRENCY), WEBHOOK_RETRY_DELAYS_MS: '1000' } as const;

async function owner(deps: Deps, n: number): Promise<SessionPrincipal> {
  const { account, user } = await signup(deps, { accountName: `Bench ${n}`, email: `bench${n}-${Date.now()}@example.com`, password: 'correct horse battery' });
  return { type: 'session', accountId: account.id, userId: user.id, sessionId: 'bench', role: 'owner' };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function countAttempts(deps: Deps): Promise<number> {
  const [row] = await deps.db('webhook_attempts').count<{ count: string }[]>('* as count');
  return Number(row!.count);
}

/**
 * (a) N events committed (500 per transaction) while the workers are stopped, then the workers started and timed
 * to the N-th attempt row. The commit writes the delivery rows and adds their jobs (fan-out happens at commit),
 * so the commit phase is timed too and reported with the drain.
 */
async function endToEnd(deps: Deps, receiver: Receiver, n: number): Promise<{ drainPerS: number; commitMs: number }> {
  const principal = await owner(deps, 1);
  await createWebhook(deps, { principal, ip: null }, { url: `${receiver.url}/a`, events: ['message.received'] });
  const before = await countAttempts(deps);
  const committing = performance.now();
  for (let done = 0; done < n; done += 500) {
    await transactWithEvents(deps, principal.accountId, async (_trx, emit) => {
      for (let i = done; i < Math.min(n, done + 500); i++) await emit({ type: 'message.received', payload: { n: i, text: 'hello' } });
    });
  }
  const commitMs = performance.now() - committing;
  receiver.received.length = 0;
  const started = performance.now();
  const workers = await startWorkers(deps, { schedule: false });
  await receiver.waitFor(n, 120_000);
  while ((await countAttempts(deps)) < before + n) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - started) / 1000;
  await workers.close();
  return { drainPerS: n / seconds, commitMs };
}

/** (b) N bare BullMQ jobs, each a single undici POST of a similar body. */
async function baseline(deps: Deps, receiver: Receiver, n: number): Promise<number> {
  const connection = createWorkerRedis(deps.config.redis.url);
  const queue = new Queue('bench-baseline', { connection, prefix: deps.config.bullmqPrefix });
  const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 10_000 });
  const body = JSON.stringify({ id: crypto.randomUUID(), event: 'message.received', timestamp: new Date().toISOString(), apiVersion: '2026-11-01', inboxId: null, messageId: null, payload: { n: 0, text: 'hello' } });
  for (let i = 0; i < n; i += 1000) {
    await queue.addBulk(Array.from({ length: Math.min(1000, n - i) }, (_, k) => ({ name: 'post', data: { n: i + k }, opts: { removeOnComplete: { count: 1000 } } })));
  }
  receiver.received.length = 0;
  const started = performance.now();
  const worker = new Worker(
    'bench-baseline',
    async () => {
      const res = await request(`${receiver.url}/b`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher });
      await res.body.text();
    },
    { connection: createWorkerRedis(deps.config.redis.url), prefix: deps.config.bullmqPrefix, concurrency: CONCURRENCY },
  );
  await receiver.waitFor(n, 120_000);
  const seconds = (performance.now() - started) / 1000;
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  await dispatcher.close();
  connection.disconnect();
  return n / seconds;
}

/** A worker process on this bench's database and prefix: the service's workers as deployed, or the bare baseline. */
function spawnWorkerProcess(deps: Deps, script = 'test/helpers/worker-process.ts', env: Record<string, string> = {}): Promise<ChildProcess> {
  const { config } = deps;
  const proc = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...ENV, ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: config.database.url, REDIS_URL: config.redis.url, BULLMQ_PREFIX: config.bullmqPrefix, APP_SECRET: config.appSecret },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(proc));
    proc.on('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
}

/** Calls `fire(n)` for n = first, first + 1, … at `rate`/s without waiting for each other; resolves when all settled. */
async function paced(rate: number, first: number, count: number, fire: (n: number) => Promise<unknown>) {
  const intervalMs = 1000 / rate;
  const start = performance.now();
  const inflight: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const wait = start + i * intervalMs - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inflight.push(fire(first + i));
  }
  await Promise.all(inflight);
}

/** One event per transaction, as an API request commits it. */
const commitEvent = (deps: Deps, accountId: string) => (n: number) =>
  transactWithEvents(deps, accountId, (_trx, emit) => emit({ type: 'message.sent', payload: { n } }));

/** CPU time used by the whole machine so far (Linux /proc/stat), or null elsewhere. */
function machineCpuMs(): number | null {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) * (1000 / 100);
  } catch {
    return null;
  }
}

/** Runs `work` and reports the share of the machine it kept busy (this process, workers, Postgres, Redis). */
async function withMachineCpu(events: number, work: () => Promise<void>) {
  const before = machineCpuMs();
  const started = performance.now();
  await work();
  const after = machineCpuMs();
  const elapsedMs = performance.now() - started;
  if (before === null || after === null) return {};
  return { machineCoresBusy: +((after - before) / elapsedMs).toFixed(2), cpuUsPerEvent: Math.round(((after - before) * 1000) / events) };
}

/**
 * Latency from `fire(n)` to the arrival of `payload.n` at `path`, at `rate`/s for LATENCY_SECONDS after one
 * second of warm-up (JIT, pools, keep-alive sockets) that is not counted.
 */
async function arrivalLatency(receiver: Receiver, path: string, rate: number, fire: (n: number) => Promise<unknown>) {
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  receiver.respond = (req) => {
    const t0 = req.path === path ? sentAt.get(req.body?.payload?.n) : undefined;
    if (t0 !== undefined) latencies.push(performance.now() - t0);
  };
  const round = async (first: number, count: number) => {
    await paced(rate, first, count, (n) => {
      sentAt.set(n, performance.now());
      return fire(n);
    });
    const deadline = Date.now() + 30_000;
    while (latencies.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  };
  await round(1_000_000, Math.round(rate));
  latencies.length = 0;
  const total = Math.round(rate * LATENCY_SECONDS);
  const cpu = await withMachineCpu(total, () => round(0, total));
  receiver.respond = () => undefined;
  const sorted = [...latencies].sort((a, b) => a - b);
  return { rate: Math.round(rate), events: total, arrived: sorted.length, p50Ms: +percentile(sorted, 50).toFixed(1), p99Ms: +percentile(sorted, 99).toFixed(1), ...cpu };
}

/**
 * (c) events committed one by one at `rate`/s by this process (the API side), delivered by the service's workers in
 * their own process; latency from just before the commit to arrival at the receiver.
 */
async function latency(deps: Deps, receiver: Receiver, rate: number) {
  const principal = await owner(deps, 2);
  const path = `/c/${Math.round(rate)}`;
  await createWebhook(deps, { principal, ip: null }, { url: `${receiver.url}${path}`, events: ['message.sent'] });
  const worker = await spawnWorkerProcess(deps);
  try {
    return await arrivalLatency(receiver, path, rate, commitEvent(deps, principal.accountId));
  } finally {
    worker.kill('SIGKILL');
  }
}

/**
 * The floor under (c), in two parts at the same rate: committing the same single-event transactions for an account
 * with no subscription (no deliveries, no jobs), and bare BullMQ jobs added one by one and POSTed by a bare worker
 * process (bench/bare-worker.ts), with no database at all.
 */
async function latencyFloor(deps: Deps, receiver: Receiver, rate: number) {
  const principal = await owner(deps, 4);
  const commit = commitEvent(deps, principal.accountId);
  await paced(rate, 1_000_000, Math.round(rate), commit);
  const total = Math.round(rate * LATENCY_SECONDS);
  const commitOnly = { rate: Math.round(rate), ...(await withMachineCpu(total, () => paced(rate, 0, total, commit))) };

  const path = `/floor/${Math.round(rate)}`;
  const worker = await spawnWorkerProcess(deps, 'bench/bare-worker.ts', { BENCH_TARGET: `${receiver.url}${path}` });
  const connection = createWorkerRedis(deps.config.redis.url);
  const queue = new Queue('bench-bare', { connection, prefix: deps.config.bullmqPrefix });
  try {
    const bare = await arrivalLatency(receiver, path, rate, (n) => queue.add('post', { n }, { removeOnComplete: { count: 1000 } }));
    return { commitOnly, bareBullmqPost: bare };
  } finally {
    worker.kill('SIGKILL');
    await queue.obliterate({ force: true });
    await queue.close();
    connection.disconnect();
  }
}

/** (d) one event to 1,000 subscriptions of one account: time from commit to the last arrival. */
async function fanOut(deps: Deps, receiver: Receiver) {
  const principal = await owner(deps, 3);
  for (let i = 0; i < FANOUT; i += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, k) => createWebhook(deps, { principal, ip: null }, { url: `${receiver.url}/d/${i + k}`, events: ['inbox.created'] })));
  }
  const workers = await startWorkers(deps, { schedule: false });
  receiver.received.length = 0;
  const started = performance.now();
  await transactWithEvents(deps, principal.accountId, (_trx, emit) => emit({ type: 'inbox.created', payload: { id: 'inb_bench' } }));
  await receiver.waitFor(FANOUT, 60_000);
  const ms = performance.now() - started;
  await workers.close();
  return Math.round(ms);
}

export const webhooksBenchmark: Benchmark = {
  name: `webhooks: ${N} deliveries end to end vs bare BullMQ+undici, latency at half rate, 1 event → ${FANOUT} subscriptions`,
  async run(env) {
    const { deps, close } = await env.createDeps(ENV);
    const receiver = await startReceiver();
    try {
      // A warm-up round of each (JIT, connection pools, keep-alive sockets), not counted, so that neither side
      // pays for starting cold.
      await endToEnd(deps, receiver, WARMUP);
      await baseline(deps, receiver, WARMUP);
      const { drainPerS: e2e, commitMs } = await endToEnd(deps, receiver, N);
      const base = await baseline(deps, receiver, N);
      const withCommit = N / ((N / e2e) + commitMs / 1000);
      const fanMs = await fanOut(deps, receiver);
      const lat = await latency(deps, receiver, Number(process.env.BENCH_LATENCY_RATE ?? e2e / 2));
      // For context: the same at a quarter of (a)'s rate, and the floor under (c) at (c)'s rate.
      const latQuarter = await latency(deps, receiver, e2e / 4);
      const floor = await latencyFloor(deps, receiver, lat.rate);
      return {
        'a_end_to_end_deliveries_per_s': Math.round(e2e),
        'b_bare_bullmq_undici_jobs_per_s': Math.round(base),
        'a_over_b': +(e2e / base).toFixed(2),
        'a_commit_phase_ms': Math.round(commitMs),
        'a_with_commit_phase_per_s': Math.round(withCommit),
        'c_commit_to_arrival': lat,
        'c_at_quarter_rate': latQuarter,
        'c_floor_commit_only': floor.commitOnly,
        'c_floor_bare_bullmq_post': floor.bareBullmqPost,
        'd_fanout_1000_last_arrival_ms': fanMs,
        goals: { a_ge_0_6_b: e2e >= 0.6 * base, a_ge_1500: e2e >= 1500, c_p99_le_100ms: lat.p99Ms <= 100, d_le_3000ms: fanMs <= 3000 },
        settings: { deliveries: N, concurrency: CONCURRENCY },
      };
    } finally {
      await receiver.close();
      await close();
    }
  },
};
