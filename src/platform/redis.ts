import { Redis, type RedisOptions } from 'ioredis';

export type { Redis };

/**
 * Connection for BullMQ workers and blocking commands: retries forever, as BullMQ requires.
 */
export function createWorkerRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: false });
}

/**
 * Connection for the API: fails fast when Redis is away, so a request answers 503 (or falls back to the
 * outbox) instead of hanging.
 */
export function createApiRedis(url: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    ...extra,
  });
}

export async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1500, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
