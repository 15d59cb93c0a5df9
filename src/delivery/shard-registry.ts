import type { Queue } from 'bullmq';
import type { Deps } from '../app/deps.js';
import { deliveryShards, parseShardKey, shardKey, shardRegistryKey, type DeliveryShard } from '../platform/shards.js';

// Which delivery shards may hold jobs. Changing WEBHOOK_SHARDS moves every subscription to a new queue, but
// the jobs already queued (waiting, or delayed retries) stay where they were added. So every worker records its
// K's shards in one Redis set under the base tag; a shard in that set that is not of the current K is retired:
// workers drain it until it holds no job that will run, then forget it.

/** Records the current K's shards as ones that may hold jobs. */
export async function registerShards(deps: Deps): Promise<void> {
  const current = currentShards(deps).map(shardKey);
  await deps.redis.sadd(shardRegistryKey(deps.config.bullmqPrefix), ...current);
}

/** Shards of another K that may still hold jobs: recorded, and not of the current K. */
export async function retiredShards(deps: Deps): Promise<DeliveryShard[]> {
  const recorded = await deps.redis.smembers(shardRegistryKey(deps.config.bullmqPrefix));
  const current = new Set(currentShards(deps).map(shardKey));
  return recorded
    .filter((key) => !current.has(key))
    .map(parseShardKey)
    .filter((p): p is DeliveryShard => p !== null);
}

/** Forgets a retired partition found empty; a job added to it later is scheduled again by the sweep. */
export async function forgetShard(deps: Deps, partition: DeliveryShard): Promise<void> {
  await deps.redis.srem(shardRegistryKey(deps.config.bullmqPrefix), shardKey(partition));
}

/** Jobs of a queue that will still run (finished ones kept for bull-board do not count). */
export const jobsToRun = (queue: Queue): Promise<number> =>
  queue.getJobCountByTypes('waiting', 'delayed', 'active', 'prioritized', 'waiting-children');

/** Retired partitions that still hold jobs to run, with their queues (bull-board shows them). */
export async function drainingShards(deps: Deps): Promise<Array<{ partition: DeliveryShard; queue: Queue }>> {
  const retired = (await retiredShards(deps)).map((partition) => ({
    partition,
    queue: deps.queues.deliveryQueueOf(partition),
  }));
  const left = await Promise.all(retired.map(({ queue }) => jobsToRun(queue)));
  return retired.filter((_r, i) => left[i]! > 0);
}

const currentShards = (deps: Deps) => deliveryShards(deps.config.bullmqPrefix, deps.config.webhooks.shards);
