import { randomUUID } from 'node:crypto';
import type { Deps } from '../../app/deps.js';
import { now } from '../../platform/clock.js';
import { exhausted } from './errors.js';

// The open events/stream requests of one credential, counted across web processes: a Redis sorted set of slot
// ids scored by when each lapses. A stream renews its slot at every heartbeat and removes it when it ends; a
// process that dies leaves slots that lapse after three heartbeats, so a crash never locks a credential out.

const OPEN = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

export interface StreamSlot {
  renew(): Promise<void>;
  release(): Promise<void>;
}

export async function takeStreamSlot(deps: Deps, audience: string): Promise<StreamSlot> {
  const key = `${deps.config.bullmqPrefix}:mcp-streams:${audience}`;
  const id = randomUUID();
  const { heartbeatMs, streamsPerCredential: max } = deps.config.mcp.events;
  const lapse = 3 * heartbeatMs;
  const at = now().getTime();
  const taken = await deps.redis.eval(OPEN, 1, key, at, at + lapse, max, id, lapse);
  if (taken !== 1) throw exhausted('streams', max);
  return {
    async renew() {
      const t = now().getTime();
      await deps.redis.zadd(key, 'XX', t + lapse, id);
      await deps.redis.pexpire(key, lapse);
    },
    async release() {
      await deps.redis.zrem(key, id);
    },
  };
}
