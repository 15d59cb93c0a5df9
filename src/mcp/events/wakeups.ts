import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/logger.js';
import { createWorkerRedis, type RedisClient } from '../../platform/redis.js';
import { eventWakeupChannel } from '../../events/event-wakeup.js';

// A web process's side of the events wakeups (src/events/event-wakeup.ts): one Redis subscriber for the process,
// connected at the first listener, one channel per account that has a waiting poll or an open stream, unsubscribed
// when its last listener leaves. A listener is called once per commit that wrote events of its account.

export interface EventWakeups {
  /** Calls `wake` at each wakeup of the account until the returned function is called; resolved once subscribed. */
  listen(accountId: string, wake: () => void): Promise<() => void>;
  close(): Promise<void>;
}

/** How long subscribing to an account's channel may take before the request is answered as unavailable. */
const SUBSCRIBE_MS = 5000;

export function createEventWakeups(config: Config, logger: Logger): EventWakeups {
  const prefix = config.bullmqPrefix;
  const listeners = new Map<string, Set<() => void>>();
  let subscriber: RedisClient | undefined;

  const connect = (): RedisClient => {
    if (subscriber) return subscriber;
    const sub = createWorkerRedis(config.redis);
    sub.on('error', (err: Error) => logger.warn({ err: err.message }, 'MCP events wakeup subscription error'));
    sub.on('message', (channel: string) => {
      const accountId = channel.slice(eventWakeupChannel(prefix, '').length);
      for (const wake of listeners.get(accountId) ?? []) wake();
    });
    subscriber = sub;
    return sub;
  };

  const withTimeout = <T>(work: Promise<T>): Promise<T> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Redis did not confirm the subscription')), SUBSCRIBE_MS);
      work.then(resolve, reject).finally(() => clearTimeout(timer));
    });

  return {
    async listen(accountId, wake) {
      let set = listeners.get(accountId);
      const first = !set;
      if (!set) {
        set = new Set();
        listeners.set(accountId, set);
      }
      set.add(wake);
      const sub = connect();
      if (first) {
        try {
          await withTimeout(sub.subscribe(eventWakeupChannel(prefix, accountId)));
        } catch (err) {
          set.delete(wake);
          if (set.size === 0) listeners.delete(accountId);
          throw err;
        }
      }
      let done = false;
      return () => {
        if (done) return;
        done = true;
        set.delete(wake);
        if (set.size > 0 || listeners.get(accountId) !== set) return;
        listeners.delete(accountId);
        sub.unsubscribe(eventWakeupChannel(prefix, accountId)).catch(() => undefined);
      };
    },
    async close() {
      listeners.clear();
      if (subscriber) subscriber.disconnect();
      subscriber = undefined;
    },
  };
}
