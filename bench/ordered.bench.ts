import type { Deps } from '../src/app/deps.js';
import { transactWithEvents } from '../src/events/emit.js';
import { createWebhook } from '../src/webhooks/webhooks.service.js';
import { softDeleteWebhook } from '../src/webhooks/webhooks.repository.js';
import { startWorkers } from '../workers/index.js';
import { startPrivateCluster } from '../test/helpers/private-cluster.js';
import { startReceiver, type Receiver } from '../test/helpers/receiver.js';
import type { Benchmark } from './run.js';
import { countAttempts, owner, paced, percentile, WEBHOOK_ENV } from './webhook-helpers.js';

// Ordered delivery (docs/webhook-retries.md#ordered-delivery), on a Redis Cluster of three masters started
// here (BENCH_ORDERED_REDIS=shared: the shared Redis instead):
// (a) throughput: N contact events over 50 keys committed with the workers running, timed from the first commit to
//     the N-th attempt row, for an unordered subscription and for an ordered one, alternately, twice each (the
//     best of each is kept). An ordered subscription's 50 keys each send one delivery at a time.
//     Goal: ordered >= 0.7 x unordered.
// (b) what a failing key costs the others: events over 50 keys paced at RATE/s to an ordered subscription, the
//     p99 commit → first arrival of the 49 other keys while key 0's receiver answers 503 to everything, against
//     the same run with no failure.

const N = Number(process.env.BENCH_ORDERED_N ?? 3000);
const KEYS = 50;
const RATE = Number(process.env.BENCH_ORDERED_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_ORDERED_S ?? 5);
// Retries that keep the failing key held through run (b).
const ENV = { ...WEBHOOK_ENV, WEBHOOK_RETRY_DELAYS_MS: Array(30).fill(500).join(','), WEBHOOK_DISABLE_AFTER: '10000' };

type Ordering = 'none' | 'key';

async function subscribe(deps: Deps, n: number, url: string, ordering: Ordering) {
  const principal = await owner(deps, n);
  const webhook = await createWebhook(deps, { principal, ip: null }, { url, events: ['contact.updated'], ordering });
  return { accountId: principal.accountId, webhookId: webhook.id };
}

const contactEvent = (n: number) => ({ type: 'contact.updated' as const, payload: { id: `ct_${n % KEYS}`, n } });

/**
 * (a) N events over 50 keys committed 500 per transaction with the workers running, timed from the first commit
 * to the N-th attempt row: the commit's fan-out (which adds the unordered jobs) is inside the time, as is every
 * advance (which adds the ordered ones).
 */
async function drain(deps: Deps, receiver: Receiver, ordering: Ordering, n: number) {
  const { accountId, webhookId } = await subscribe(deps, 1, `${receiver.url}/a`, ordering);
  const workers = await startWorkers(deps, { schedule: false });
  receiver.received.length = 0;
  const started = performance.now();
  for (let done = 0; done < n; done += 500)
    await transactWithEvents(deps, accountId, async (_trx, emit) => {
      for (let i = done; i < Math.min(n, done + 500); i++) await emit(contactEvent(i));
    });
  const commitMs = performance.now() - started;
  await receiver.waitFor(n, 300_000);
  while ((await countAttempts(deps, webhookId)) < n) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - started) / 1000;
  await workers.close();
  console.log(
    `  ${ordering}: ${n} committed in ${Math.round(commitMs)} ms, delivered in ${Math.round(seconds * 1000)} ms`,
  );
  return Math.round(n / seconds);
}

/**
 * (b) p99 commit → first arrival of the keys other than key 0, events paced over 50 keys to an ordered
 * subscription.
 */
async function latencyOfOtherKeys(deps: Deps, receiver: Receiver, failKeyZero: boolean, round: number) {
  const path = `/b/${round}`;
  const { accountId, webhookId } = await subscribe(deps, 2 + round, `${receiver.url}${path}`, 'key');
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  receiver.respond = (req) => {
    if (req.path !== path) return undefined;
    const n = req.body.payload.n as number;
    if (n % KEYS === 0) return failKeyZero ? { status: 503 } : undefined;
    const t0 = sentAt.get(n);
    if (t0 !== undefined) {
      latencies.push(performance.now() - t0);
      sentAt.delete(n);
    }
    return undefined;
  };
  const workers = await startWorkers(deps, { schedule: false });
  const total = RATE * SECONDS;
  const others = total - Math.ceil(total / KEYS);
  await paced(RATE, 0, total, (n) => {
    sentAt.set(n, performance.now());
    return transactWithEvents(deps, accountId, (_trx, emit) => emit(contactEvent(n)));
  });
  const deadline = Date.now() + 60_000;
  while (latencies.length < others && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await softDeleteWebhook(deps.db, accountId, webhookId);
  await workers.close();
  receiver.respond = () => undefined;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    otherKeysArrived: `${sorted.length}/${others}`,
    p50Ms: +percentile(sorted, 50).toFixed(1),
    p99Ms: +percentile(sorted, 99).toFixed(1),
  };
}

export const orderedBenchmark: Benchmark = {
  id: 'ordered',
  name: `ordered: ${N} deliveries over ${KEYS} keys, ordered vs unordered; a failing key's cost to the others' p99`,
  async run(env) {
    const shared = process.env.BENCH_ORDERED_REDIS === 'shared';
    const cluster = shared ? null : await startPrivateCluster(3);
    const redisEnv = cluster
      ? { REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes, BULLMQ_PREFIX: `{sbb-ordered-${process.pid}}` }
      : {};
    const { deps, close } = await env.createDeps({ ...ENV, ...redisEnv }).catch(async (err: unknown) => {
      await cluster?.destroy();
      throw err;
    });
    const receiver = await startReceiver();
    try {
      await drain(deps, receiver, 'none', Math.round(N / 3));
      await drain(deps, receiver, 'key', Math.round(N / 3));
      const rounds: Record<Ordering, number[]> = { none: [], key: [] };
      for (let i = 0; i < 2; i++)
        for (const ordering of ['none', 'key'] as const)
          rounds[ordering].push(await drain(deps, receiver, ordering, N));
      const unordered = Math.max(...rounds.none);
      const ordered = Math.max(...rounds.key);
      const healthy = await latencyOfOtherKeys(deps, receiver, false, 0);
      const failing = await latencyOfOtherKeys(deps, receiver, true, 1);
      return {
        redis: cluster ? 'private cluster, 3 masters' : 'shared single server',
        n: N,
        keys: KEYS,
        deliveriesPerS: { unordered, ordered, rounds },
        ratio: +(ordered / unordered).toFixed(2),
        goal: '>= 0.7',
        otherKeysAt: `${RATE}/s over ${KEYS} keys for ${SECONDS} s`,
        noFailure: healthy,
        keyZeroFailing: failing,
        p99Ratio: +(failing.p99Ms / healthy.p99Ms).toFixed(2),
      };
    } finally {
      await receiver.close();
      await close();
      await cluster?.destroy();
    }
  },
};
