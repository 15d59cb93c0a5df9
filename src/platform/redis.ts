import type { EventEmitter } from 'node:events';
import { Cluster, Redis as Standalone, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisNode } from './config.js';
import { withoutPassword } from './url-password.js';

/**
 * A connection to Redis: one server (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES). Every command the
 * service sends works on both, because every key starts with BULLMQ_PREFIX, which on a cluster carries a hash tag:
 * all keys share one slot, so BullMQ's scripts, the key cache's MGET and every MULTI stay on one node. The one
 * exception, delivery shards (WEBHOOK_SHARDS > 1), gives each delivery queue a tag of its own: a queue's
 * keys still share one slot (src/platform/shards.ts).
 */
export type RedisClient = Standalone | Cluster;

/** Where Redis is: a URL, or `config.redis` (its clusterNodes, when set, win over its url). */
export type RedisTarget = string | { url: string; clusterNodes: readonly RedisNode[] | null };

const clusterNodesOf = (target: RedisTarget): RedisNode[] | null =>
  typeof target === 'string' || !target.clusterNodes ? null : [...target.clusterNodes];
const urlOf = (target: RedisTarget): string => (typeof target === 'string' ? target : target.url);

/** Where Redis is, for messages: the URL without its password, or "host:port, host:port" (nodes carry none). */
export function describeRedis(target: RedisTarget): string {
  const nodes = clusterNodesOf(target);
  if (!nodes) return withoutPassword(urlOf(target));
  return nodes.map((n) => `${n.host.includes(':') ? `[${n.host}]` : n.host}:${n.port}`).join(', ');
}

/**
 * Connection for BullMQ workers and blocking commands: retries forever, as BullMQ requires (on a cluster BullMQ
 * reads maxRetriesPerRequest from redisOptions, and duplicates this client for its blocking connection).
 */
export function createWorkerRedis(target: RedisTarget): RedisClient {
  const nodes = clusterNodesOf(target);
  if (nodes) return new Cluster(nodes, { redisOptions: { maxRetriesPerRequest: null } });
  return new Standalone(urlOf(target), { maxRetriesPerRequest: null, enableReadyCheck: false });
}

/**
 * Connection for the API: fails fast when Redis is away, so a request answers 503 (or falls back to the
 * outbox) instead of hanging. `extra` applies to a single server only. Commands sent before it is ready fail
 * too (no offline queue): wait for `whenRedisReady` before serving.
 */
export function createApiRedis(target: RedisTarget, extra: RedisOptions = {}): RedisClient {
  const nodes = clusterNodesOf(target);
  if (nodes) {
    const options: ClusterOptions = {
      enableOfflineQueue: false,
      redisOptions: { maxRetriesPerRequest: 1, connectTimeout: 2000 },
    };
    return new Cluster(nodes, options);
  }
  return new Standalone(urlOf(target), {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    ...extra,
  });
}

/** Resolves once the client is ready for commands; rejects after `timeoutMs`. */
export async function whenRedisReady(client: RedisClient, timeoutMs = 10_000): Promise<void> {
  if (client.status === 'ready') return;
  const emitter = client as EventEmitter;
  await new Promise<void>((resolve, reject) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      emitter.off('ready', onReady);
      reject(new Error(`Redis did not become ready within ${timeoutMs} ms`));
    }, timeoutMs);
    emitter.once('ready', onReady);
  });
}

/**
 * Whether Redis answers: PING for one server; for a cluster, the slot map is loaded from a node that answers
 * and CLUSTER INFO must say the cluster is ok (every slot served), else nothing the service writes can work.
 */
export async function redisAnswers(target: RedisTarget): Promise<boolean> {
  const nodes = clusterNodesOf(target);
  const probe = nodes
    ? new Cluster(nodes, {
        lazyConnect: true,
        enableOfflineQueue: false,
        clusterRetryStrategy: () => null,
        slotsRefreshTimeout: 1500,
        redisOptions: { connectTimeout: 1500, maxRetriesPerRequest: 0 },
      })
    : new Standalone(urlOf(target), {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        connectTimeout: 1500,
        retryStrategy: () => null,
      });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    if (probe instanceof Cluster) return /^cluster_state:ok\b/m.test(String(await probe.cluster('INFO')));
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
