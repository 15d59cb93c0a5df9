import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whenRedisReady } from '../../src/platform/redis.js';
import { deliveryShards, shardKey, shardRegistryKey } from '../../src/platform/shards.js';
import { startPrivateRedis, type PrivateRedis } from '../helpers/private-redis.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// The workers' close when Redis answers nothing (docs/adr/0081-stuck-workers.md): a redis-server of the test's
// own, stopped with SIGSTOP, keeps every connection open and answers no command, as a connection wedged by a Cluster
// failover does. BullMQ's close of a worker waits for its blocking connection's QUIT forever; the workers' close
// leaves such a worker behind once no job of it runs, so a shutdown ends instead of running out its timeout. The
// worker draining a retired shard (another WEBHOOK_SHARDS) closes the same way.

let redis: PrivateRedis;
let t: TestContext;

beforeAll(async () => {
  redis = await startPrivateRedis();
  t = await createTestContext({ REDIS_URL: redis.url, WEBHOOK_SHARDS: '3' });
});
afterAll(async () => {
  redis?.thaw();
  await t?.close();
  await redis?.destroy();
});

describe('closing workers whose Redis stopped answering', () => {
  it("ends once no job runs, leaving the wedged workers behind, a retired shard's too", async () => {
    // A job due in an hour in the queue of K=1, recorded by workers of K=1 and retired under K=3: startWorkers
    // starts a worker to drain it too.
    const prefix = t.deps.config.bullmqPrefix;
    const shard = deliveryShards(prefix, 1)[0]!;
    const queue = t.deps.queues.deliveryQueueOf(shard);
    await queue.add('wedge-test', {}, { delay: 3600_000 });
    await whenRedisReady(t.deps.redis);
    await t.deps.redis.sadd(shardRegistryKey(prefix), shardKey(shard));
    const running = await t.startWorkers();
    await Promise.all(running.workers.map((w) => w.waitUntilReady()));
    redis.freeze();
    await expect(running.close()).resolves.toBeUndefined();
  }, 300_000);
});
