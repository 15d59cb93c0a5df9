import type { Config } from '../src/platform/config.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { SessionPrincipal } from '../src/auth/principal.js';
import { signup } from '../src/accounts/accounts.service.js';
import { transactWithEvents } from '../src/events/emit.js';
import type { Deps } from '../src/app/deps.js';
import { createWebhook } from '../src/webhooks/webhooks.service.js';
import { startWorkers } from '../workers/index.js';
import type { EventType } from '../src/events/event-types.js';
import type { Receiver } from '../test/helpers/receiver.js';

// The pieces of the webhook benchmarks (bench/webhooks.bench.ts, bench/scale.bench.ts, bench/sizing.bench.ts):
// an account and subscription to a receiver, events committed as the service commits them, the service's
// workers in-process or in a process of their own, steady-rate load and commit → arrival latency.

export const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 100);
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_S ?? 5);

/** The environment of a webhook benchmark's database and its worker processes. */
export const WEBHOOK_ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  QUEUE_CONCURRENCY: `webhook-delivery=${CONCURRENCY}`,
  WEBHOOK_RETRY_DELAYS_MS: '1000',
} as const;

export async function owner(deps: Deps, n: number): Promise<SessionPrincipal> {
  const { account, user } = await signup(deps, {
    accountName: `Bench ${n}`,
    email: `bench${n}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    password: 'correct horse battery',
  });
  return { type: 'session', accountId: account.id, userId: user.id, sessionId: 'bench', role: 'owner' };
}

/** A new account with one subscription to `url` for `event`. */
export async function subscriber(
  deps: Deps,
  n: number,
  url: string,
  event: EventType,
): Promise<{ principal: SessionPrincipal; webhookId: string }> {
  const principal = await owner(deps, n);
  const webhook = await createWebhook(deps, { principal, ip: null }, { url, events: [event] });
  return { principal, webhookId: webhook.id };
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Attempts recorded for one subscription (on its page index, so a large table costs nothing). */
export async function countAttempts(deps: Deps, webhookId: string): Promise<number> {
  const [row] = await deps
    .db('webhook_attempts')
    .where({ webhook_id: webhookId })
    .count<{ count: string }[]>('* as count');
  return Number(row!.count);
}

/** `n` events for `accountId`, 500 per transaction, committed one transaction after another. */
export async function commitEvents(
  deps: Deps,
  accountId: string,
  n: number,
  type: EventType = 'message.received',
): Promise<void> {
  for (let done = 0; done < n; done += 500) {
    await transactWithEvents(deps, accountId, async (_trx, emit) => {
      for (let i = done; i < Math.min(n, done + 500); i++) await emit({ type, payload: { n: i, text: 'hello' } });
    });
  }
}

/**
 * N events committed (500 per transaction) while the workers are stopped, then the workers started and timed
 * to the N-th attempt row. The commit writes the delivery rows and adds their jobs (fan-out happens at commit),
 * so the commit phase is timed too and reported with the drain.
 */
export async function endToEnd(
  deps: Deps,
  receiver: Receiver,
  n: number,
): Promise<{ drainPerS: number; commitMs: number; cpuUsPerDelivery: number }> {
  const { principal, webhookId } = await subscriber(deps, 1, `${receiver.url}/a`, 'message.received');
  const committing = performance.now();
  await commitEvents(deps, principal.accountId, n);
  const commitMs = performance.now() - committing;
  receiver.received.length = 0;
  const cpu = processCpuMs(process.pid);
  const started = performance.now();
  const workers = await startWorkers(deps, { schedule: false });
  await receiver.waitFor(n, 120_000);
  while ((await countAttempts(deps, webhookId)) < n) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - started) / 1000;
  const cpuUsPerDelivery = cpuUsPerItem(cpu, n);
  await workers.close();
  return { drainPerS: n / seconds, commitMs, cpuUsPerDelivery };
}

/**
 * A side's round at one rate. A round that misses `limitMs` without passing `saturatedMs` is measured twice more and
 * the median round kept (the middle p99), so that one pause of the shared machine does not decide a rate; every side
 * of a comparison is measured this way, and the answer keeps every round's p99.
 */
export async function roundAt<R extends { p99Ms: number }>(
  measure: () => Promise<R>,
  limitMs: number,
  saturatedMs: number,
): Promise<R & { roundsP99Ms?: number[] }> {
  const first = await measure();
  if (first.p99Ms <= limitMs || first.p99Ms > saturatedMs) return first;
  return medianRound([first, await measure(), await measure()]);
}

/** Of several rounds of one side, the median by one figure (the higher of the middle two). */
export function medianBy<R>(rounds: R[], figure: (r: R) => number): R {
  return [...rounds].sort((a, b) => figure(a) - figure(b))[Math.floor(rounds.length / 2)]!;
}

/** Of several rounds of one side at one rate, the median by p99, with every p99. */
export function medianRound<R extends { p99Ms: number }>(rounds: R[]): R & { roundsP99Ms: number[] } {
  const p99 = (r: R) => r.p99Ms;
  return { ...medianBy(rounds, p99), roundsP99Ms: rounds.map(p99).sort((a, b) => a - b) };
}

/** One side's round at one rate, and whether it held the limit. */
export interface RateRound<R> {
  rate: number;
  round: R;
  held: boolean;
}

/**
 * The highest rate up to which every measured rate held, ascending; a miss ends it for good (a rate that held
 * again after one that did not is a pause of the machine at the lower rate, or a lucky round). 0 if the first
 * missed.
 */
export function sustainedRate(rounds: readonly Pick<RateRound<unknown>, 'rate' | 'held'>[]): number {
  let sustained = 0;
  for (const { rate, held } of [...rounds].sort((a, b) => a.rate - b.rate)) {
    if (!held) break;
    sustained = rate;
  }
  return sustained;
}

/**
 * A side's ladder made finer where it matters: the rates between its highest held rate and its first miss, two of
 * them a third of the gap apart (rounded to 10/s), measured ascending until one misses. The ladders step by 100 or
 * 150/s, a fifth to a third of the rates where the figures fall (300–750/s), as wide as the sustained-rate goal's
 * margin (0.8×): read on the ladder alone, a side that holds 740/s reads 600 and one that holds 610 reads 600
 * too. Each side's gap is measured alike, so the figure gets finer, not easier. Nothing is measured when the side
 * held nothing or missed nothing.
 */
export async function refineGap<R>(
  rounds: readonly RateRound<unknown>[],
  measure: (rate: number) => Promise<RateRound<R>>,
): Promise<RateRound<R>[]> {
  const held = sustainedRate(rounds);
  const missed = [...rounds].sort((a, b) => a.rate - b.rate).find((r) => r.rate > held && !r.held)?.rate;
  if (!held || missed === undefined) return [];
  const between = [1, 2].map((k) => Math.round((held + ((missed - held) * k) / 3) / 10) * 10);
  const refined: RateRound<R>[] = [];
  for (const rate of new Set(between.filter((r) => r > held && r < missed))) {
    const round = await measure(rate);
    refined.push(round);
    if (!round.held) break;
  }
  return refined;
}

/** µs of this process's CPU per item since `before` (processCpuMs; 0 where /proc is not there). */
export function cpuUsPerItem(before: number | null, n: number): number {
  const after = processCpuMs(process.pid);
  return before === null || after === null ? 0 : Math.round(((after - before) * 1000) / n);
}

/** A worker process on this bench's database and prefix: the service's workers as deployed, or the bare baseline. */
export function spawnWorkerProcess(
  deps: Deps,
  script = 'test/helpers/worker-process.ts',
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const { config } = deps;
  const proc = spawn(process.execPath, ['--import', 'tsx', script], {
    env: serviceEnv(config, { ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Never outlive the bench, even when it fails before its own cleanup.
  const orphan = () => proc.kill('SIGKILL');
  process.once('exit', orphan);
  proc.once('exit', () => process.off('exit', orphan));
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(proc));
    proc.on('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
}

/**
 * Calls `fire(n)` for n = first, first + 1, … at `rate`/s without waiting for each other, for as long as
 * `more(i)` says so; resolves with the number fired once all have settled.
 */
export async function pacedWhile(
  rate: number,
  first: number,
  more: (i: number) => boolean,
  fire: (n: number) => Promise<unknown>,
): Promise<number> {
  const intervalMs = 1000 / rate;
  const start = performance.now();
  const inflight: Promise<unknown>[] = [];
  let i = 0;
  for (; more(i); i++) {
    const wait = start + i * intervalMs - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inflight.push(fire(first + i));
  }
  await Promise.all(inflight);
  return i;
}

/** Calls `fire(n)` for n = first … first + count - 1 at `rate`/s; resolves when all settled. */
export const paced = (rate: number, first: number, count: number, fire: (n: number) => Promise<unknown>) =>
  pacedWhile(rate, first, (i) => i < count, fire);

/** One event per transaction, as an API request commits it. */
export const commitEvent =
  (deps: Deps, accountId: string, type: EventType = 'message.sent') =>
  (n: number) =>
    transactWithEvents(deps, accountId, (_trx, emit) => emit({ type, payload: { n } }));

/**
 * CPU time used by the whole machine so far (Linux /proc/stat), or null elsewhere. Steal (time the hypervisor gave
 * to other guests) is left out: it is not work of this machine, and on a busy host it read as more than 2 of 2
 * cores busy.
 */
export function machineCpuMs(): number | null {
  try {
    const [user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return (user! + nice! + system! + irq! + softirq!) * (1000 / 100);
  } catch {
    return null;
  }
}

/** CPU time used so far by one process (Linux /proc/<pid>/stat, user + system), or null elsewhere. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return null;
  }
}

/** Runs `work` and reports the share of the machine it kept busy (this process, workers, Postgres, Redis). */
async function withMachineCpu(events: number | (() => number), work: () => Promise<unknown>) {
  const before = machineCpuMs();
  const started = performance.now();
  await work();
  const after = machineCpuMs();
  const elapsedMs = performance.now() - started;
  if (before === null || after === null) return {};
  const count = typeof events === 'number' ? events : events();
  return {
    machineCoresBusy: +((after - before) / elapsedMs).toFixed(2),
    cpuUsPerEvent: Math.round(((after - before) * 1000) / count),
  };
}

export interface LatencyOptions {
  /** Length of the measured round (BENCH_LATENCY_S, 5 s by default). */
  seconds?: number;
  /** Work run alongside the measured round, `duringAfterMs` into it; the round goes on until it is done. */
  during?: () => Promise<unknown>;
  duringAfterMs?: number;
}

let nextN = 0;

/**
 * Latency from `fire(n)` to the arrival of `payload.n` at `path`, at `rate`/s for LATENCY_SECONDS (or
 * `opts.seconds`, or longer while `opts.during` runs) after one second of warm-up (JIT, pools, keep-alive
 * sockets) that is not counted; and how long each counted `fire` took to resolve (`returnedP50Ms`, `returnedP99Ms`).
 */
export async function arrivalLatency(
  receiver: Receiver,
  path: string,
  rate: number,
  fire: (n: number) => Promise<unknown>,
  opts: LatencyOptions = {},
) {
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  /** When each counted event was fired, aligned with `latencies`. */
  const firedAt: number[] = [];
  /** How long each counted `fire` took to resolve: a request's response through the API, or a commit. */
  const returned: number[] = [];
  let failed = 0;
  let lastError: string | undefined;
  receiver.respond = (req) => {
    // payload.n, or metadata.n of a contact created through the API (bench/api-pipeline.bench.ts).
    const t0 = req.path === path ? sentAt.get(req.body?.payload?.n ?? req.body?.payload?.metadata?.n) : undefined;
    if (t0 !== undefined) {
      latencies.push(performance.now() - t0);
      firedAt.push(t0);
    }
  };
  // Every call numbers its events apart, so that a straggler of an earlier call is never counted here.
  const round = async (more: (i: number) => boolean, counted: boolean) => {
    const first = nextN;
    nextN += 100_000_000;
    const count = await pacedWhile(rate, first, more, (n) => {
      const t0 = performance.now();
      sentAt.set(n, t0);
      // A commit that fails (a pool timeout under overload) is counted, not thrown mid-round.
      return fire(n).then(
        () => void (counted && returned.push(performance.now() - t0)),
        (err: unknown) => {
          failed += 1;
          lastError = (err as Error).message;
        },
      );
    });
    const deadline = Date.now() + 30_000;
    while (latencies.length < count - failed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return count;
  };
  const warmup = Math.round(rate);
  await round((i) => i < warmup, false);
  latencies.length = 0;
  firedAt.length = 0;
  failed = 0;

  const total = Math.round(rate * (opts.seconds ?? LATENCY_SECONDS));
  let finished = !opts.during;
  let duringMs: number | undefined;
  let duringSpan: [number, number] | undefined;
  let duringError: unknown;
  const side = opts.during
    ? (async () => {
        await new Promise((r) => setTimeout(r, opts.duringAfterMs ?? 1000));
        const t0 = performance.now();
        try {
          await opts.during!();
        } catch (err) {
          duringError = err;
        } finally {
          duringMs = performance.now() - t0;
          duringSpan = [t0, t0 + duringMs];
          finished = true;
        }
      })()
    : undefined;
  let fired = 0;
  const cpu = await withMachineCpu(
    () => fired,
    async () => {
      fired = await round((i) => i < total || !finished, true);
    },
  );
  await side;
  receiver.respond = () => undefined;
  if (duringError) throw duringError;
  const sorted = [...latencies].sort((a, b) => a - b);
  returned.sort((a, b) => a - b);
  // The events fired while `during` ran, on their own.
  const inside = duringSpan
    ? latencies.filter((_l, i) => firedAt[i]! >= duringSpan![0] && firedAt[i]! <= duringSpan![1]).sort((a, b) => a - b)
    : [];
  return {
    rate: Math.round(rate),
    events: fired,
    arrived: sorted.length,
    p50Ms: +percentile(sorted, 50).toFixed(1),
    p99Ms: +percentile(sorted, 99).toFixed(1),
    maxMs: +sorted[sorted.length - 1]!.toFixed(1),
    returnedP50Ms: +percentile(returned, 50).toFixed(1),
    returnedP99Ms: +percentile(returned, 99).toFixed(1),
    ...(duringMs !== undefined ? { duringMs: Math.round(duringMs) } : {}),
    ...(inside.length
      ? {
          firedDuring: inside.length,
          firedDuringP50Ms: +percentile(inside, 50).toFixed(1),
          firedDuringP99Ms: +percentile(inside, 99).toFixed(1),
        }
      : {}),
    ...(failed ? { failedCommits: failed, lastError } : {}),
    ...cpu,
  };
}

/**
 * Events committed one by one at `rate`/s by this process (the API side), delivered by the service's workers in
 * their own process (`worker`); latency from just before the commit to arrival at the receiver.
 */
export async function commitToArrival(deps: Deps, receiver: Receiver, rate: number, opts: LatencyOptions = {}) {
  const path = `/c/${Math.round(rate)}/${nextN}`;
  const { principal } = await subscriber(deps, 2, `${receiver.url}${path}`, 'message.sent');
  return arrivalLatency(receiver, path, rate, commitEvent(deps, principal.accountId), opts);
}

/** The environment of a service process the bench starts: its database, Redis, prefix and secret, plus `extra`. */
export function serviceEnv(config: Config, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...WEBHOOK_ENV,
    ...extra,
    DATABASE_URL: config.database.url,
    REDIS_URL: config.redis.url,
    BULLMQ_PREFIX: config.bullmqPrefix,
    APP_SECRET: config.appSecret,
  };
}
