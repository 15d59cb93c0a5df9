import type { Queue, Worker } from 'bullmq';
import type { Deps } from '../src/app/deps.js';
import { shardKey } from '../src/platform/shards.js';
import { whenRedisReady } from '../src/platform/redis.js';
import { forgetShard, jobsToRun, registerShards, retiredShards } from '../src/delivery/shard-registry.js';

/**
 * Deliveries queued under another WEBHOOK_SHARDS are still delivered: this process records its K's shards
 * and consumes every retired shard that still holds jobs to run (waiting, delayed retries) until it holds none,
 * and forgets it then. Checked at start and every `check-schedulers` interval (src/delivery/shard-registry.ts).
 * `close` closes a worker the way every worker of the process closes (workers/index.ts: a wedged one is left behind).
 */
export async function drainRetiredShards(
  deps: Deps,
  consume: (queue: Queue) => Worker,
  close: (worker: Worker) => Promise<void>,
): Promise<{ close(): Promise<void> }> {
  const draining = new Map<string, Worker>();
  const stop = async (key: string) => {
    const worker = draining.get(key);
    draining.delete(key);
    if (worker) await close(worker);
  };
  const check = async () => {
    // Again every time: a process of another K may have found this K's shards empty and forgotten them.
    await registerShards(deps);
    const retired = await retiredShards(deps);

    const keys = new Set(retired.map(shardKey));
    for (const partition of retired) {
      const key = shardKey(partition);
      const queue = deps.queues.deliveryQueueOf(partition);
      if ((await jobsToRun(queue)) > 0) {
        if (draining.has(key)) continue;
        deps.logger.info({ queue: key }, 'draining a delivery shard of another WEBHOOK_SHARDS');
        draining.set(key, consume(queue));
      } else {
        await forgetShard(deps, partition);
        await stop(key);
      }
    }
    // Forgotten by another process meanwhile: empty.
    for (const key of [...draining.keys()]) if (!keys.has(key)) await stop(key);
  };

  let running = false;
  const checkOnce = async () => {
    if (running) return;
    running = true;
    await check()
      .catch((err: Error) => deps.logger.warn({ err: err.message }, 'could not check retired delivery shards'))
      .finally(() => (running = false));
  };
  // The first check before any job is taken; Redis refusing it only defers it to the next (nothing is lost).
  await whenRedisReady(deps.redis).catch(() => undefined);
  await checkOnce();
  const timer = setInterval(() => void checkOnce(), deps.config.schedules.checkMs);
  timer.unref();
  return {
    close: async () => {
      clearInterval(timer);
      await Promise.all([...draining.keys()].map(stop));
    },
  };
}
