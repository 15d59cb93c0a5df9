import type { Deps } from '../src/app/deps.js';
import { transactWithEvents } from '../src/events/emit.js';
import { createWebhook } from '../src/webhooks/webhooks.service.js';
import type { Benchmark } from './run.js';
import {
  cpuBetween,
  newSecret,
  openStream,
  readKey,
  rssMb,
  sampleCpu,
  startService,
  startWebhookReceiver,
  statelessCall,
  type Arrival,
  type OpenStream,
  type Service,
} from './mcp-events-parts.js';
import { medianBy, owner, pacedWhile, percentile, WEBHOOK_ENV } from './webhook-helpers.js';

// MCP Events against the webhook floor (docs/performance.md#mcp-events): the same events at the same rate to
// CONSUMERS consumers of each side, the service as one web and one worker process, rounds alternating between the
// sides and the median round kept. Sides: ordinary webhook subscriptions to a receiver here (the floor), open
// events/stream pushes (stateless era, raw SSE), and MCP webhook subscriptions (events/subscribe). Then the idle
// cost of IDLE_STREAMS open streams at the production heartbeat. `BENCH_ONLY=mcp-events npm run bench`.

const RATE = Number(process.env.BENCH_EVENTS_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_EVENTS_S ?? 10);
const CONSUMERS = Number(process.env.BENCH_EVENTS_CONSUMERS ?? 100);
const ROUNDS = Number(process.env.BENCH_EVENTS_ROUNDS ?? 3);
const IDLE_STREAMS = Number(process.env.BENCH_EVENTS_IDLE_STREAMS ?? 1000);
const IDLE_S = Number(process.env.BENCH_EVENTS_IDLE_S ?? 60);
const SIDES = (process.env.BENCH_EVENTS_SIDES ?? 'webhooks,streams,mcpWebhooks').split(',') as Side[];
/** The open streams one credential may hold (config.mcp.events.streamsPerCredential). */
const STREAMS_PER_KEY = 50;

type Side = 'webhooks' | 'streams' | 'mcpWebhooks';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let arrived: Arrival = () => undefined;
const onArrival: Arrival = (c, n) => arrived(c, n);
let nextN = 0;

interface SideSetup {
  accountId: string;
  consumers: string[];
  /** Opens what lives only for a round (the streams); returns its closer. */
  open?: () => Promise<() => void>;
  /** Webhook sides: attempts recorded so far, to wait for the worker's bookkeeping of a round. */
  attempts?: () => Promise<number>;
}

async function attemptsOf(deps: Deps, accountId: string): Promise<number> {
  const [row] = await deps
    .db('webhook_attempts as a')
    .join('webhooks as w', 'w.id', 'a.webhook_id')
    .where('w.account_id', accountId)
    .count<{ count: string }[]>('* as count');
  return Number(row!.count);
}

async function until(ms: number, done: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/** `count` events at RATE/s, one per transaction, and every consumer's arrivals of them. */
async function fire(deps: Deps, side: SideSetup, count: number) {
  const first = nextN;
  nextN += 1_000_000;
  const sentAt = new Map<number, number>();
  const got = new Map(side.consumers.map((c) => [c, new Set<number>()]));
  const latencies: number[] = [];
  let duplicates = 0;
  let total = 0;
  arrived = (c, n) => {
    const t0 = sentAt.get(n);
    const seen = got.get(c);
    if (t0 === undefined || !seen) return;
    if (seen.has(n)) return void duplicates++;
    seen.add(n);
    total++;
    latencies.push(performance.now() - t0);
  };
  const type = 'message.received' as const;
  await pacedWhile(
    RATE,
    first,
    (i) => i < count,
    async (n) => {
      sentAt.set(n, performance.now());
      await transactWithEvents(deps, side.accountId, (_trx, emit) => emit({ type, payload: { n, text: 'hello' } }));
    },
  );
  const expected = count * side.consumers.length;
  await until(60_000, () => total >= expected);
  arrived = () => undefined;
  const short = [...got.values()].filter((s) => s.size < count).length;
  latencies.sort((a, b) => a - b);
  return { expected, delivered: total, duplicates, consumersShort: short, latencies };
}

/** One measured round of a side: a second of warm-up, then RATE/s for SECONDS; CPU from before to after. */
async function round(deps: Deps, service: Service, side: SideSetup) {
  const close = side.open ? await side.open() : () => undefined;
  try {
    const warm = Math.max(1, Math.round(RATE));
    const base = side.attempts ? await side.attempts() : 0;
    await fire(deps, side, warm);
    const perRound = side.consumers.length;
    if (side.attempts) await until(60_000, async () => (await side.attempts!()) >= base + warm * perRound);
    const before = await sampleCpu(deps, service);
    const started = performance.now();
    const events = Math.round(RATE * SECONDS);
    const r = await fire(deps, side, events);
    if (side.attempts) {
      const want = base + (warm + events) * perRound;
      await until(60_000, async () => (await side.attempts!()) >= want);
    }
    const after = await sampleCpu(deps, service);
    const cpu = cpuBetween(before, after);
    const per = (ms: number) => Math.round((ms * 1000) / r.delivered);
    return {
      events,
      delivered: r.delivered,
      expected: r.expected,
      complete: r.delivered === r.expected && r.consumersShort === 0,
      duplicates: r.duplicates,
      seconds: +((performance.now() - started) / 1000).toFixed(1),
      serviceUsPerDelivery: per(cpu.service),
      webUs: per(cpu.web),
      workerUs: per(cpu.worker),
      pgWebUs: per(cpu.pgWeb),
      pgWorkerUs: per(cpu.pgWorker),
      pgCommitUs: per(cpu.pgCommit),
      machineUsPerDelivery: per(cpu.machine),
      backendsLost: cpu.backendsLost,
      p50Ms: +percentile(r.latencies, 50).toFixed(1),
      p99Ms: +percentile(r.latencies, 99).toFixed(1),
      maxMs: +r.latencies[r.latencies.length - 1]!.toFixed(1),
    };
  } finally {
    close();
  }
}

async function openAll(webUrl: string, keys: string[], names: string[]): Promise<OpenStream[]> {
  const open: OpenStream[] = [];
  for (let i = 0; i < names.length; i += 50) {
    const batch = names.slice(i, i + 50).map((c, j) => openStream(webUrl, keys[i + j]!, c, onArrival));
    open.push(...(await Promise.all(batch)));
  }
  return open;
}

async function setUp(deps: Deps, service: Service, receiverUrl: string): Promise<Record<Side, SideSetup>> {
  const ids = (p: string) => Array.from({ length: CONSUMERS }, (_, i) => `${p}${i}`);
  const hooks = await owner(deps, 1);
  for (const c of ids('a')) {
    await createWebhook(
      deps,
      { principal: hooks, ip: null },
      { url: `${receiverUrl}/${c}`, events: ['message.received'] },
    );
  }
  const pushes = await owner(deps, 2);
  const streamKeys = await Promise.all(ids('b').map((_, i) => readKey(deps, pushes, i)));
  const mcp = await owner(deps, 3);
  for (const [i, c] of ids('c').entries()) {
    const key = await readKey(deps, mcp, i);
    const delivery = { mode: 'webhook', url: `${receiverUrl}/${c}`, secret: newSecret() };
    const answer = await statelessCall(service.web.url, key, 'events/subscribe', {
      name: 'message.received',
      delivery,
    });
    if (!answer.result) throw new Error(`events/subscribe: ${JSON.stringify(answer.error)}`);
  }
  return {
    webhooks: { accountId: hooks.accountId, consumers: ids('a'), attempts: () => attemptsOf(deps, hooks.accountId) },
    streams: {
      accountId: pushes.accountId,
      consumers: ids('b'),
      open: async () => {
        const open = await openAll(service.web.url, streamKeys, ids('b'));
        return () => open.forEach((s) => s.close());
      },
    },
    mcpWebhooks: { accountId: mcp.accountId, consumers: ids('c'), attempts: () => attemptsOf(deps, mcp.accountId) },
  };
}

/** Web-process CPU and RSS of IDLE_STREAMS open streams over IDLE_S, against the same time with none open. */
async function idleStreams(deps: Deps, service: Service) {
  const account = await owner(deps, 4);
  const keys = await Promise.all(
    Array.from({ length: Math.ceil(IDLE_STREAMS / STREAMS_PER_KEY) }, (_, i) => readKey(deps, account, i)),
  );
  const keyOf = Array.from({ length: IDLE_STREAMS }, (_, i) => keys[Math.floor(i / STREAMS_PER_KEY)]!);
  const names = Array.from({ length: IDLE_STREAMS }, (_, i) => `i${i}`);
  // The stream path's code loaded and compiled before the first reading.
  (await openAll(service.web.url, keyOf.slice(0, 50), names.slice(0, 50))).forEach((s) => s.close());
  await sleep(5000);
  const pid = service.web.proc.pid!;
  const rssBefore = rssMb(pid);
  const quiet0 = await sampleCpu(deps, service);
  await sleep(IDLE_S * 1000);
  const quiet = cpuBetween(quiet0, await sampleCpu(deps, service));
  const open = await openAll(service.web.url, keyOf, names);
  try {
    await sleep(5000);
    const rssOpen = rssMb(pid);
    const beats0 = open.reduce((n, s) => n + s.heartbeats, 0);
    const busy0 = await sampleCpu(deps, service);
    await sleep(IDLE_S * 1000);
    const busy = cpuBetween(busy0, await sampleCpu(deps, service));
    const perStreamMinute = (ms: number) => +((ms * 60) / IDLE_S / IDLE_STREAMS).toFixed(3);
    return {
      streams: open.length,
      seconds: IDLE_S,
      heartbeats: open.reduce((n, s) => n + s.heartbeats, 0) - beats0,
      webCpuMsPerStreamPerMinute: perStreamMinute(busy.web - quiet.web),
      pgWebCpuMsPerStreamPerMinute: perStreamMinute(busy.pgWeb - quiet.pgWeb),
      webCpuMsNoStreams: Math.round(quiet.web),
      webCpuMsWithStreams: Math.round(busy.web),
      rssMbBefore: Math.round(rssBefore),
      rssMbOpen: Math.round(rssOpen),
      rssKbPerStream: Math.round(((rssOpen - rssBefore) * 1024) / IDLE_STREAMS),
    };
  } finally {
    open.forEach((s) => s.close());
  }
}

export const mcpEventsBenchmark: Benchmark = {
  id: 'mcp-events',
  name: 'mcp-events: CPU per delivery and commit → arrival of webhooks, MCP event streams and MCP webhooks; idle streams',
  async run(env) {
    const bench = await env.createDeps(WEBHOOK_ENV);
    const { deps } = bench;
    const receiver = await startWebhookReceiver(onArrival);
    const service = await startService(deps);
    try {
      const idle = IDLE_STREAMS > 0 ? await idleStreams(deps, service) : undefined;
      const sides = await setUp(deps, service, receiver.url);
      const rounds: Record<string, Awaited<ReturnType<typeof round>>[]> = {};
      for (let r = 0; r < ROUNDS; r++) {
        for (const side of SIDES) (rounds[side] ??= []).push(await round(deps, service, sides[side]));
      }
      const median = Object.fromEntries(
        Object.entries(rounds).map(([side, rs]) => [
          side,
          {
            ...medianBy(rs, (x) => x.serviceUsPerDelivery),
            roundsServiceUs: rs.map((x) => x.serviceUsPerDelivery),
            roundsP99Ms: rs.map((x) => x.p99Ms),
            allComplete: rs.every((x) => x.complete),
          },
        ]),
      );
      const floor = median.webhooks?.serviceUsPerDelivery;
      const ratio = (side: string) =>
        floor && median[side] ? +(median[side].serviceUsPerDelivery / floor).toFixed(2) : undefined;
      return {
        setup: { rate: RATE, seconds: SECONDS, consumers: CONSUMERS, rounds: ROUNDS, event: 'message.received' },
        cpu: 'service = web + worker processes + Postgres backends of the bench database (/proc), per delivery',
        streamsOverWebhooks: ratio('streams'),
        mcpWebhooksOverWebhooks: ratio('mcpWebhooks'),
        ...median,
        ...(idle ? { idle } : {}),
      };
    } finally {
      await service.stop();
      await receiver.close();
      await bench.close();
    }
  },
};
