import type { Deps } from '../../src/app/deps.js';
import { createQueues } from '../../src/platform/queues.js';
import { createApiRedis } from '../../src/platform/redis.js';

/** Deps whose queues point at a Redis that is not there: every enqueue fails, as during a Redis outage. */
export function withDeadQueue(deps: Deps): { deps: Deps; close(): Promise<void> } {
  const dead = createApiRedis('redis://127.0.0.1:1', { retryStrategy: () => null });
  dead.on('error', () => undefined);
  const queues = createQueues(dead, deps.config.bullmqPrefix, () => undefined, deps.config.webhooks.partitions);
  return {
    deps: { ...deps, queues },
    close: async () => {
      await queues.close().catch(() => undefined);
      dead.disconnect();
    },
  };
}
