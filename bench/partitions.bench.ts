import type { Deps } from '../src/app/deps.js';
import { shardOf } from '../src/delivery/schedule.js';
import { createWebhook } from '../src/webhooks/webhooks.service.js';
import { startWorkers } from '../workers/index.js';
import { startPrivateCluster } from '../test/helpers/private-cluster.js';
import { startReceiver, type Receiver } from '../test/helpers/receiver.js';
import type { Benchmark } from './run.js';
import { commitEvents, countAttempts, owner, WEBHOOK_ENV } from './webhook-helpers.js';

// Delivery shards (docs/scaling.md#delivery-shards): on a local 3-master Redis Cluster the bench starts (the tests'
// helper), the drain of N committed deliveries to a local receiver, as bench/webhooks.bench.ts figure (a) measures it, with
// WEBHOOK_SHARDS=1 (every queue key in one slot, one master) and =3 (one partition per master), alternated in
// the same run. The deliveries belong to 12 subscriptions of one account, so that K=3 spreads them.

const N = Number(process.env.BENCH_PARTITIONS_N ?? 3000);
const SUBSCRIPTIONS = 12;
const ROUNDS = Number(process.env.BENCH_PARTITIONS_ROUNDS ?? 3);

/** N deliveries committed while no worker runs, then the workers started and timed to the N-th attempt row. */
async function drain(deps: Deps, receiver: Receiver, path: string): Promise<{ perS: number; perPartition: number[] }> {
  const principal = await owner(deps, 1);
  const webhookIds: string[] = [];
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    const webhook = await createWebhook(
      deps,
      { principal, ip: null },
      { url: `${receiver.url}${path}`, events: ['message.received'] },
    );
    webhookIds.push(webhook.id);
  }
  await commitEvents(deps, principal.accountId, Math.ceil(N / SUBSCRIPTIONS));
  const total = Math.ceil(N / SUBSCRIPTIONS) * SUBSCRIPTIONS;
  const arrived = () => receiver.received.filter((r) => r.path === path).length;
  const started = performance.now();
  const workers = await startWorkers(deps, { schedule: false });
  while (arrived() < total) await new Promise((r) => setTimeout(r, 5));
  const attempts = async () =>
    (await Promise.all(webhookIds.map((id) => countAttempts(deps, id)))).reduce((a, b) => a + b);
  while ((await attempts()) < total) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - started) / 1000;
  await workers.close();
  const perPartition = Array.from({ length: deps.config.webhooks.shards }, () => 0);
  for (const id of webhookIds) perPartition[shardOf({ webhook_id: id }, perPartition.length)]!++;
  return { perS: Math.round(total / seconds), perPartition };
}

export const partitionsBenchmark: Benchmark = {
  id: 'partitions',
  name: 'partitions',
  async run(env) {
    const cluster = await startPrivateCluster(3);
    const receiver = await startReceiver();
    const rates: Record<'k1' | 'k3', number[]> = { k1: [], k3: [] };
    const spread: number[][] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const k of [1, 3] as const) {
          const { deps, close } = await env.createDeps({
            ...WEBHOOK_ENV,
            REDIS_URL: '',
            REDIS_CLUSTER_NODES: cluster.nodes,
            BULLMQ_PREFIX: `{sbp-${round}-${k}}`,
            WEBHOOK_SHARDS: String(k),
          });
          try {
            const { perS, perPartition } = await drain(deps, receiver, `/k${k}/${round}`);
            rates[`k${k}`].push(perS);
            if (k === 3) spread.push(perPartition);
          } finally {
            await close();
          }
          receiver.received.length = 0;
        }
      }
    } finally {
      await receiver.close();
      await cluster.destroy();
    }
    const best = (xs: number[]) => Math.max(...xs);
    return {
      deliveries: Math.ceil(N / SUBSCRIPTIONS) * SUBSCRIPTIONS,
      subscriptions: SUBSCRIPTIONS,
      k1DrainPerS: rates.k1,
      k3DrainPerS: rates.k3,
      k3SubscriptionsPerPartition: spread,
      k3OverK1: +(best(rates.k3) / best(rates.k1)).toFixed(2),
    };
  },
};
