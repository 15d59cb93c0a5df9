import type { RedisClient } from '../platform/redis.js';

// Per-subscription throttling, shared by every worker process through one Redis hash per subscription.
//
// The schedule is a GCRA ("generic cell rate algorithm") that hands out slots: each delivery that asks is given
// the next free slot, one emission interval (1000 / rate ms) after the previous one, and waits for it. Asking is
// the reservation, so a backlog of N throttled deliveries costs N calls, not N calls per second of waiting, and
// the slots of all processes interleave on one timeline. Redis's own clock decides, so the hosts' clocks need
// not agree. The hash remembers the rate its slots were handed out at: a different rate (a PATCH) starts a new
// timeline, and a delivery whose slot was given under the old rate asks again when it wakes (see
// attemptDelivery), so a lowered rate holds for the backlog too.

const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = 1000 / tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'tat', 'rate')
local tat = tonumber(state[1]) or 0
if state[2] ~= ARGV[1] then tat = 0 end
local slot = math.max(tat, now)
redis.call('HSET', KEYS[1], 'tat', string.format('%.3f', slot + interval), 'rate', ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.ceil(slot + interval - now) + 60000)
return {string.format('%.3f', slot), string.format('%.3f', now)}
`;

/** A slot handed out: when it is on Redis's clock, and how many ms from the reservation that is (0: go now). */
export interface Slot {
  atMs: number;
  waitMs: number;
}

export interface WebhookThrottle {
  /** Reserves the subscription's next slot at `perSecond`. */
  reserve(webhookId: string, perSecond: number): Promise<Slot>;
}

export function createWebhookThrottle(redis: RedisClient, prefix: string): WebhookThrottle {
  return {
    async reserve(webhookId, perSecond) {
      const [slot, now] = (await redis.eval(RESERVE, 1, `${prefix}:throttle:${webhookId}`, String(perSecond))) as [
        string,
        string,
      ];
      return { atMs: Number(slot), waitMs: Math.ceil(Number(slot) - Number(now)) };
    },
  };
}

/** A delivery held back by its subscription's throttle: its job waits `waitMs` for a slot given at `slotRps`. */
export interface Throttled {
  waitMs: number;
  /** The rate the slot was given at; absent when the wait is not a throttle slot (a full stream). */
  slotRps?: number;
}

/** A slot this close is waited for in process: cheaper than moving the job to delayed and back. */
const WAIT_IN_PROCESS_MS = 50;

/**
 * Before a delivery is sent: null when it may go now (unthrottled, its slot was given at the current rate, or
 * the slot is a moment away), else how long its job must wait. `slotRps` is what the job carries when it was
 * delayed here before; a slot given at another rate (the subscription's rate changed meanwhile) is asked anew.
 */
export async function takeSlot(
  throttle: WebhookThrottle,
  webhookId: string,
  perSecond: number | null,
  slotRps: number | undefined,
): Promise<Throttled | null> {
  if (perSecond === null || slotRps === perSecond) return null;
  const { waitMs } = await throttle.reserve(webhookId, perSecond);
  if (waitMs <= 0) return null;
  if (waitMs <= WAIT_IN_PROCESS_MS) {
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    return null;
  }
  return { waitMs, slotRps: perSecond };
}
