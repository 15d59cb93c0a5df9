import { spawn, type ChildProcess } from 'node:child_process';
import { Queue, Worker } from 'bullmq';
import { Agent, request } from 'undici';
import type { SessionPrincipal } from '../src/auth/principal.js';
import { signup } from '../src/accounts/accounts.service.js';
import { transactWithEvents } from '../src/events/outbox.js';
import type { Deps } from '../src/platform/deps.js';
import { closeHttpClient } from '../src/platform/http-client.js';
import { createWorkerRedis } from '../src/platform/redis.js';
import { createWebhook } from '../src/webhooks/webhooks.service.js';
import { startWorkers } from '../workers/index.js';
import { startReceiver, type Receiver } from '../test/helpers/receiver.js';
import type { Benchmark } from './run.js';

// Webhooks (issue 5): (a) end-to-end deliveries/s, event row → fan-out job → delivery job → signed POST →
// attempt row; (b) the same number of bare BullMQ jobs whose processor only POSTs with undici; (c) commit →
// arrival latency at half of (a)'s rate; (d) one event fanned out to 1,000 subscriptions.
// Goals: (a) >= 0.6 x (b) and >= 1,500/s; (c) p99 <= 100 ms; (d) <= 3 s.

const N = Number(process.env.BENCH_WEBHOOK_N ?? 6000);
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 100);
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_S ?? 5);
const FANOUT = 1000;

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

/** (a) N events committed with workers stopped, then timed from worker start to the N-th attempt row. */
async function endToEnd(deps: Deps, receiver: Receiver): Promise<number> {
  const principal = await owner(deps, 1);
  await createWebhook(deps, { principal, ip: null }, { url: `${receiver.url}/a`, events: ['message.received'] });
  for (let done = 0; done < N; done += 500) {
    await transactWithEvents(deps, principal.accountId, async (_trx, emit) => {
      for (let i = done; i < Math.min(N, done + 500); i++) await emit({ type: 'message.received', payload: { n: i, text: 'hello' } });
    });
  }
  receiver.received.length = 0;
  const started = performance.now();
  const workers = await startWorkers(deps, { schedule: false });
  await receiver.waitFor(N, 120_000);
  while ((await countAttempts(deps)) < N) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - started) / 1000;
  await workers.close();
  return N / seconds;
}

/** (b) N bare BullMQ jobs, each a single undici POST of a similar body. */
async function baseline(deps: Deps, receiver: Receiver): Promise<number> {
  const connection = createWorkerRedis(deps.config.redis.url);
  const queue = new Queue('bench-baseline', { connection, prefix: deps.config.bullmqPrefix });
  const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 10_000 });
  const body = JSON.stringify({ id: crypto.randomUUID(), event: 'message.received', timestamp: new Date().toISOString(), apiVersion: '2026-11-01', inboxId: null, messageId: null, payload: { n: 0, text: 'hello' } });
  for (let i = 0; i < N; i += 1000) {
    await queue.addBulk(Array.from({ length: Math.min(1000, N - i) }, (_, k) => ({ name: 'post', data: { n: i + k }, opts: { removeOnComplete: { count: 1000 } } })));
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
  await receiver.waitFor(N, 120_000);
  const seconds = (performance.now() - started) / 1000;
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  await dispatcher.close();
  connection.disconnect();
  return N / seconds;
}

/** The workers in their own process, as deployed (Procfile "worker"), on this bench's database and prefix. */
function spawnWorkerProcess(deps: Deps): Promise<ChildProcess> {
  const { config } = deps;
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/worker-process.ts'], {
    env: { ...process.env, ...ENV, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: config.database.url, REDIS_URL: config.redis.url, BULLMQ_PREFIX: config.bullmqPrefix, APP_SECRET: config.appSecret },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(proc));
    proc.on('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
}

/**
 * (c) events committed one by one at `rate`/s by this process (the API side), delivered by a separate worker
 * process; latency from just before the commit to arrival at the receiver.
 */
async function latency(deps: Deps, receiver: Receiver, rate: number) {
  const principal = await owner(deps, 2);
  await createWebhook(deps, { principal, ip: null }, { url: `${receiver.url}/c`, events: ['message.sent'] });
  const worker = await spawnWorkerProcess(deps);
  const workers = { close: async () => void worker.kill('SIGKILL') };
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  receiver.respond = (req) => {
    const t0 = sentAt.get(req.body?.payload?.n);
    if (t0 !== undefined) latencies.push(performance.now() - t0);
  };
  const paced = async (first: number, count: number) => {
    const intervalMs = 1000 / rate;
    const start = performance.now();
    const inflight: Promise<unknown>[] = [];
    for (let i = 0; i < count; i++) {
      const wait = start + i * intervalMs - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const n = first + i;
      sentAt.set(n, performance.now());
      inflight.push(transactWithEvents(deps, principal.accountId, (_trx, emit) => emit({ type: 'message.sent', payload: { n } })));
    }
    await Promise.all(inflight);
    const deadline = Date.now() + 30_000;
    while (latencies.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  };
  // One second of warm-up (JIT, connection pools, keep-alive sockets), not counted.
  await paced(1_000_000, Math.round(rate));
  latencies.length = 0;
  const total = Math.round(rate * LATENCY_SECONDS);
  await paced(0, total);
  await workers.close();
  receiver.respond = () => undefined;
  const sorted = [...latencies].sort((a, b) => a - b);
  return { rate: Math.round(rate), events: total, arrived: sorted.length, p50Ms: +percentile(sorted, 50).toFixed(1), p99Ms: +percentile(sorted, 99).toFixed(1) };
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
      const e2e = await endToEnd(deps, receiver);
      const base = await baseline(deps, receiver);
      const lat = await latency(deps, receiver, Number(process.env.BENCH_LATENCY_RATE ?? e2e / 2));
      const fanMs = await fanOut(deps, receiver);
      return {
        'a_end_to_end_deliveries_per_s': Math.round(e2e),
        'b_bare_bullmq_undici_jobs_per_s': Math.round(base),
        'a_over_b': +(e2e / base).toFixed(2),
        'c_commit_to_arrival': lat,
        'd_fanout_1000_last_arrival_ms': fanMs,
        goals: { a_ge_0_6_b: e2e >= 0.6 * base, a_ge_1500: e2e >= 1500, c_p99_le_100ms: lat.p99Ms <= 100, d_le_3000ms: fanMs <= 3000 },
        settings: { deliveries: N, concurrency: CONCURRENCY },
      };
    } finally {
      await receiver.close();
      await closeHttpClient();
      await close();
    }
  },
};
