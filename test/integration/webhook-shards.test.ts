import { afterEach, describe, expect, it } from 'vitest';
import type { Queue } from 'bullmq';
import { transactWithEvents } from '../../src/events/emit.js';
import { deliveryShards, shardKey, shardRegistryKey } from '../../src/platform/shards.js';
import { createQueues } from '../../src/platform/queues.js';
import { deliveryJobId, shardOf } from '../../src/delivery/schedule.js';
import { sweepOverdueDeliveries } from '../../src/delivery/sweep.js';
import { registerShards } from '../../src/delivery/shard-registry.js';
import { deliveryIdsOf } from '../helpers/delivery-jobs.js';
import { client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { setupAccount } from '../helpers/setup-account.js';
import { waitUntil } from '../helpers/wait.js';
import { killHard, spawnWorkerProcess, type WorkerChild } from '../helpers/worker-child.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Workers consume the partitions WEBHOOK_WORKER_SHARDS names, and changing WEBHOOK_SHARDS is safe: deliveries
// queued under the old K (waiting, and retries delayed in Redis) are still delivered by workers started with the
// new K, which drain the old K's partitions and then forget them.
// The workers of the new K run in a child process without the job schedulers, so no sweep schedules again anything:
// every delivery there arrives through the drain; the sweep of a new K is tested on its own.

const SUBSCRIPTIONS = 6;
const EVENTS = 5;

let t: TestContext | undefined;
let receiver: Receiver | undefined;
let child: WorkerChild | undefined;
afterEach(async () => {
  if (child) await killHard(child.proc);
  await receiver?.close();
  await t?.close();
  [t, receiver, child] = [undefined, undefined, undefined];
});

async function queueUnder(from: number) {
  t = await createTestContext({
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_SHARDS: String(from),
    // Long enough that the first round's retries are still delayed in Redis when the old workers stop.
    WEBHOOK_RETRY_DELAYS_MS: '4000',
  });
  const ctx = t;
  // The first arrival of every delivery of the first round fails: its retry waits as a delayed job.
  const failed = new Set<string>();
  receiver = await startReceiver((r) => {
    if (r.body?.payload?.round !== 1 || failed.has(r.body.id)) return { status: 200 };
    failed.add(r.body.id);
    return { status: 500 };
  });
  const owner = await setupAccount(ctx, { webhook: { url: receiver.url } });
  const api = client(ctx.url);
  for (let i = 1; i < SUBSCRIPTIONS; i++) {
    const body = { url: receiver.url, events: ['message.received'] };
    expect((await api.post('/v1/webhooks', { token: owner.token, body })).status).toBe(201);
  }
  const emitRound = async (round: number) => {
    for (let i = 0; i < EVENTS; i++) {
      await transactWithEvents(ctx.deps, owner.accountId, (_trx, emit) =>
        emit({ type: 'message.received', payload: { id: `${round}-${i}`, round } }),
      );
    }
    // Their jobs added: a commit's caller is answered before its deliveries are scheduled.
    await ctx.deps.background.settled();
  };

  const old = await ctx.startWorkers();
  await emitRound(1);
  const firstRound = SUBSCRIPTIONS * EVENTS;
  await waitUntil(() => failed.size === firstRound, 30_000, 'every first-round delivery to fail once');
  await waitUntil(
    async () => Number((await ctx.deps.db('webhook_attempts').count({ n: '*' }).first())?.n) === firstRound,
    30_000,
    'every failed attempt recorded',
  );
  await old.close();
  await emitRound(2);

  // Everything sits in the old K's partitions: the retries delayed, the second round waiting (an event's
  // deliveries of one partition share a job).
  const queued = await Promise.all(ctx.deps.queues.deliveryShards.map(deliveriesHeld));
  expect(queued.reduce((a, b) => a + b, 0)).toBe(2 * firstRound);
  return ctx;
}

/** How many deliveries a partition's jobs still to run hold. */
async function deliveriesHeld(queue: Queue): Promise<number> {
  const held = await queue.getJobs(['waiting', 'delayed', 'prioritized']);
  return held.flatMap(deliveryIdsOf).length;
}

async function deliveredUnder(ctx: TestContext, to: number) {
  child = spawnWorkerProcess(ctx, {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_SHARDS: String(to),
    SCHEDULE_INTERVALS_MS: 'check-schedulers=200',
  });
  await child.ready;
  const rows = await waitUntil(
    async () => {
      const all = await ctx.deps.db('webhook_deliveries');
      return all.length === 2 * SUBSCRIPTIONS * EVENTS && all.every((d) => d.status === 'succeeded') && all;
    },
    30_000,
    'every delivery queued under the old K to succeed',
  );
  const arrived = new Set(receiver!.received.map((r) => r.body?.id));
  expect(rows.filter((d) => !arrived.has(d.id))).toEqual([]);
  // Drained, the old partitions are forgotten: only the new K's remain recorded.
  const prefix = ctx.deps.config.bullmqPrefix;
  const current = deliveryShards(prefix, to).map(shardKey).sort();
  await waitUntil(
    async () =>
      JSON.stringify((await ctx.deps.redis.smembers(shardRegistryKey(prefix))).sort()) === JSON.stringify(current),
    30_000,
    'the drained partitions to be forgotten',
  );
}

describe('delivery shards', () => {
  it('lets the sweep of the new K leave a job alive in an old partition alone, and schedule again one that is gone', async () => {
    t = await createTestContext({ WEBHOOK_SHARDS: '1', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    const owner = await setupAccount(t, { webhook: { url: 'http://127.0.0.1:9/hook' } });
    await transactWithEvents(t.deps, owner.accountId, (_trx, emit) =>
      emit({ type: 'message.received', payload: { id: 'relay' } }),
    );
    const row = (await t.deps.db('webhook_deliveries').first())!;
    await registerShards(t.deps); // as each worker of K=1 does at start
    // The same service with K=3 (its own queue handles), as a worker of the new K runs the sweep.
    const queues = createQueues(t.deps.redis, t.deps.config.bullmqPrefix, () => undefined, 3);
    const config = {
      ...t.deps.config,
      webhooks: { ...t.deps.config.webhooks, shards: 3, workerShards: [0, 1, 2] },
    };
    const k3 = { ...t.deps, config, queues };
    try {
      expect(await sweepOverdueDeliveries(k3, 0, 100, 1)).toEqual({ overdue: 1, rescheduled: 0 });
      await t.deps.queues['webhook-delivery'].remove(deliveryJobId(row));
      expect(await sweepOverdueDeliveries(k3, 0, 100, 1)).toEqual({ overdue: 1, rescheduled: 1 });
      const own = queues.deliveryShards[shardOf(row, 3)]!;
      expect(await own.getJobState(`${row.id}.2`)).toBe('waiting');
    } finally {
      await queues.close();
    }
  });

  it('consumes only the partitions WEBHOOK_WORKER_SHARDS names', async () => {
    t = await createTestContext({
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_SHARDS: '3',
      WEBHOOK_WORKER_SHARDS: '1',
    });
    const ctx = t;
    receiver = await startReceiver();
    const owner = await setupAccount(ctx, { webhook: { url: receiver.url } });
    const api = client(ctx.url);
    // Subscriptions until partition 1 has one and the others have one (ids are random: a few are enough).
    const ids = [owner.webhook.id];
    const pinned = (id: string) => shardOf({ webhook_id: id }, 3) === 1;
    while (!ids.some(pinned) || ids.every(pinned)) {
      expect(ids.length).toBeLessThan(20);
      const body = { url: receiver.url, events: ['message.received'] };
      ids.push((await api.post('/v1/webhooks', { token: owner.token, body })).body.id);
    }
    await ctx.startWorkers();
    await transactWithEvents(ctx.deps, owner.accountId, (_trx, emit) =>
      emit({ type: 'message.received', payload: { id: 'pinned' } }),
    );
    const rows = await ctx.deps.db('webhook_deliveries');
    const mine = rows.filter((d) => pinned(d.webhook_id));
    await waitUntil(
      async () =>
        (
          await ctx.deps.db('webhook_deliveries').whereIn(
            'id',
            mine.map((d) => d.id),
          )
        ).every((d) => d.status === 'succeeded'),
      30_000,
      "partition 1's deliveries to succeed",
    );
    // The others wait in their partitions for a worker that consumes them (an event's deliveries of one partition
    // share a job).
    for (const d of rows.filter((r) => !pinned(r.webhook_id))) {
      const queue = ctx.deps.queues.deliveryShards[shardOf(d, 3)]!;
      const waiting = await queue.getJobs(['waiting']);
      expect(waiting.flatMap(deliveryIdsOf)).toContain(d.id);
    }
    expect(receiver.received).toHaveLength(mine.length);
  });

  it('delivers what was queued with K=1 (waiting and delayed retries) once workers run with K=3', async () => {
    await deliveredUnder(await queueUnder(1), 3);
  }, 300_000);

  it('delivers what was queued with K=3 once workers run with K=1', async () => {
    await deliveredUnder(await queueUnder(3), 1);
  }, 300_000);
});
