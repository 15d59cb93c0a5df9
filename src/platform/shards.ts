import { hashTagOf } from './config.js';

// Delivery shards (docs/scaling.md#delivery-shards): WEBHOOK_SHARDS=K delivery queues, each under a
// hash tag of its own, so that on a Redis Cluster they sit in K slots, on as many masters. The tag of partition i
// of K is the base tag with the smallest suffix whose slot falls in the i-th of K equal slot ranges, the ranges
// `redis-cli --cluster create` gives its masters: with K = masters, one partition per master. K=1 is one queue
// under the base prefix, named `webhook-delivery`.

/** Redis Cluster's slots. */
export const CLUSTER_SLOTS = 16384;

/** CRC16/XMODEM (polynomial 0x1021, initial 0) of the bytes, the checksum Redis hashes keys with. */
export function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The cluster slot of a key, as CLUSTER KEYSLOT answers: its hash tag's, when it has one, else the whole key's. */
export const keySlot = (key: string): number => crc16(new TextEncoder().encode(hashTagOf(key) ?? key)) % CLUSTER_SLOTS;

/** The first and last slot of the i-th of `count` ranges, rounded as `redis-cli --cluster create` rounds them. */
export function slotRange(index: number, count: number): [number, number] {
  const per = CLUSTER_SLOTS / count;
  const lastOf = (i: number) => (i === count - 1 ? CLUSTER_SLOTS - 1 : Math.round((i + 1) * per - 1));
  return [index === 0 ? 0 : lastOf(index - 1) + 1, lastOf(index)];
}

/** FNV-1a, 32 bits, over the string's UTF-8 bytes: a stable hash, the same in every process and release. */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  // Ids are printable ASCII: their UTF-16 code units are their bytes. Anything else is encoded first.
  const bytes = /[^ -~]/.test(s) ? new TextEncoder().encode(s) : null;
  const length = bytes ? bytes.length : s.length;
  for (let i = 0; i < length; i++) {
    h ^= bytes ? bytes[i]! : s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Which of `count` partitions a routing key belongs to. */
export const shardOfKey = (key: string, count: number): number => (count === 1 ? 0 : fnv1a32(key) % count);

/** One delivery queue: BullMQ's prefix and queue name (its keys are `<prefix>:<name>:…`). */
export interface DeliveryShard {
  prefix: string;
  name: string;
}

export const DELIVERY_QUEUE = 'webhook-delivery';

/** A partition as one string (the registry's member): its keys' common start, `<prefix>:<name>`. */
export const shardKey = (p: DeliveryShard): string => `${p.prefix}:${p.name}`;

/** The partition a registry member names (prefixes hold no ":", BULLMQ_PREFIX refuses one). */
export function parseShardKey(key: string): DeliveryShard | null {
  const at = key.indexOf(':');
  return at > 0 && at < key.length - 1 ? { prefix: key.slice(0, at), name: key.slice(at + 1) } : null;
}

/** The delivery queues of WEBHOOK_SHARDS=`count` under BULLMQ_PREFIX `base`; index = partition. */
export function deliveryShards(base: string, count: number): DeliveryShard[] {
  if (count === 1) return [{ prefix: base, name: DELIVERY_QUEUE }];
  const tag = hashTagOf(base);
  return Array.from({ length: count }, (_, i) => {
    const suffix = suffixInRange(tag ?? base, i, count);
    // Without a tag (one Redis server) the slot does not matter; the same suffix keeps the names alike.
    const prefix = tag === null ? `${base}-${suffix}` : base.replace(`{${tag}}`, `{${tag}-${suffix}}`);
    return { prefix, name: `${DELIVERY_QUEUE}-p${i}` };
  });
}

/** The smallest n whose tag `<tag>-<n>` hashes into the i-th of `count` slot ranges. */
function suffixInRange(tag: string, index: number, count: number): number {
  const [first, last] = slotRange(index, count);
  for (let n = 0; ; n++) {
    const slot = keySlot(`${tag}-${n}`);
    if (slot >= first && slot <= last) return n;
  }
}

/** The registry of partitions that may hold jobs (every K a worker ran with), under the base tag. */
export const shardRegistryKey = (base: string): string => `${base}:${DELIVERY_QUEUE}:partitions`;
