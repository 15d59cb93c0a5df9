import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { deliveryShards, keySlot } from '../../src/platform/shards.js';
import { shardOf } from '../../src/delivery/schedule.js';
import { client } from '../helpers/http.js';
import { startPrivateCluster, type PrivateCluster } from '../helpers/private-cluster.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { setupAccount } from '../helpers/setup-account.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// WEBHOOK_SHARDS=3 on a real Redis Cluster of the test's own: 3 masters, each with a replica (6 redis-server
// children on spare ports). The delivery queues sit on all three masters; every delivery arrives; and a master
// SIGKILLed during deliveries (its replica promoted) loses no committed delivery. Replication is asynchronous, so
// a job added just before the kill may be gone from the promoted replica: the delivery row is the authority and
// the sweep (every 500 ms here, for rows 1 s overdue) schedules again it, run by a worker the watchdog replaces if
// the kill left it stuck.

// At most 25 deliveries of an event are added inline (more go through a fan-out job): the jobs of an event are
// queued as soon as it commits, before any worker runs.
const MAX_SUBSCRIPTIONS = 24;
let subscriptions = 0;

let cluster: PrivateCluster;
let t: TestContext;
let receiver: Receiver;
let accountId: string;

beforeAll(async () => {
  cluster = await startPrivateCluster(3, { replicas: 1 });
  t = await createTestContext({
    REDIS_URL: undefined,
    REDIS_CLUSTER_NODES: cluster.nodes,
    WEBHOOK_SHARDS: '3',
    // A job taken by a worker whose node died is stalled: picked up again after 3 s (3 × the timeout).
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '200,400,800,1600,3200',
    WEBHOOK_SWEEP_AFTER_MS: '1000',
    // A worker whose blocking connection the kill wedges (the maintenance worker, running the sweep, was
    // seen to) is replaced within a few seconds (docs/adr/0081-stuck-workers.md).
    SCHEDULE_INTERVALS_MS: 'relay-outbox=500,check-schedulers=500,watch-workers=1000',
  });
  receiver = await startReceiver();
  const owner = await setupAccount(t, { webhook: { url: receiver.url } });
  accountId = owner.accountId;
  // Subscriptions until every partition has three (their ids are random: usually about ten are enough).
  const perPartition = [0, 0, 0];
  const count = (webhookId: string) => perPartition[shardOf({ webhook_id: webhookId }, 3)]!++;
  count(owner.webhook.id);
  const api = client(t.url);
  for (subscriptions = 1; perPartition.some((c) => c < 3); subscriptions++) {
    expect(subscriptions).toBeLessThan(MAX_SUBSCRIPTIONS);
    const body = { url: receiver.url, events: ['message.received'] };
    const res = await api.post('/v1/webhooks', { token: owner.token, body });
    expect(res.status).toBe(201);
    count(res.body.id);
  }
}, 300_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  await cluster?.destroy();
});

let n = 0;
/** One event to every subscription; its deliveries committed whether or not their jobs could be added. */
const emitEvent = () =>
  transactWithEvents(t.deps, accountId, (_trx, emit) =>
    emit({ type: 'message.received', payload: { id: `m-${++n}` } }),
  );

/** Every delivery row succeeded, and the receiver saw each one. */
async function everyDeliveryArrived(count: number, timeoutMs: number): Promise<void> {
  const rows = await waitUntil(
    async () => {
      const all = await t.deps.db('webhook_deliveries');
      return all.length === count && all.every((d) => d.status === 'succeeded') && all;
    },
    timeoutMs,
    `all ${count} deliveries to succeed`,
  );
  const arrived = new Set(receiver.received.map((r) => r.body?.id));
  expect(rows.filter((d) => !arrived.has(d.id)).map((d) => d.id)).toEqual([]);
}

/** Keys of the delivery shards on a node (SCAN to the end). */
async function partitionKeysOn(port: number): Promise<string[]> {
  const node = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0 });
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await node.scan(cursor, 'MATCH', '*webhook-delivery-p*', 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  node.disconnect();
  return keys;
}

describe('delivery shards on a Redis Cluster with replicas', () => {
  it('spreads the delivery queues over all three masters and delivers every delivery', async () => {
    const partitions = deliveryShards(t.deps.config.bullmqPrefix, 3);
    for (let i = 0; i < 2; i++) await emitEvent();
    // Queued, no worker yet: every master holds keys of the queue of its own partition.
    const masters = await cluster.masterPorts();
    expect(masters).toHaveLength(3);
    const perMaster = await Promise.all(masters.map(partitionKeysOn));
    // Each master holds one partition's queue: its waiting list and its jobs.
    const partitionsOn = perMaster.map((keys) => new Set(keys.map((k) => /:(webhook-delivery-p\d+):/.exec(k)?.[1])));
    expect(perMaster.map((keys) => keys.some((k) => k.endsWith(':wait')))).toEqual([true, true, true]);
    expect(partitionsOn.map((names) => names.size)).toEqual([1, 1, 1]);
    const served = await Promise.all(partitions.map((p) => cluster.masterOfSlot(keySlot(`${p.prefix}:x`))));
    expect(new Set(served).size).toBe(3);
    await t.startWorkers({ schedule: true });
    await everyDeliveryArrived(2 * subscriptions, 30_000);
  }, 300_000);

  it('loses no committed delivery when a master is killed during deliveries', async () => {
    const before = await t.deps.db('webhook_deliveries').count({ n: '*' }).first();
    const [, second] = deliveryShards(t.deps.config.bullmqPrefix, 3);
    const victim = await cluster.masterOfSlot(keySlot(`${second!.prefix}:x`));
    const EVENTS = 12;
    for (let i = 0; i < EVENTS; i++) {
      // Halfway, while the earlier events' deliveries are in flight.
      if (i === EVENTS / 2) await cluster.killNode(victim);
      await emitEvent();
    }
    await waitUntil(async () => !(await cluster.masterPorts()).includes(victim), 30_000, 'the replica promoted');
    await cluster.whenOk(30_000);
    expect(await cluster.masterPorts()).not.toContain(victim);
    await everyDeliveryArrived(Number(before?.n) + EVENTS * subscriptions, 45_000);
  }, 300_000);
});
