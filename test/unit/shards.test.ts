import { describe, expect, it } from 'vitest';
import {
  deliveryShards,
  fnv1a32,
  keySlot,
  parseShardKey,
  shardKey,
  shardOfKey,
  slotRange,
} from '../../src/platform/shards.js';

describe('delivery shards', () => {
  it('computes the slot Redis CLUSTER KEYSLOT answers, hash tags included', () => {
    // Answers of a real redis-server 7 in cluster mode.
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('bar')).toBe(5061);
    expect(keySlot('123456789')).toBe(12739);
    expect(keySlot('{user1000}.following')).toBe(3443);
    expect(keySlot('{sb}:webhook-delivery:wait')).toBe(4590);
    expect(keySlot('{}x')).toBe(10595);
    expect(keySlot('é')).toBe(10180);
  });

  it('splits the slots into equal ranges as redis-cli --cluster create does', () => {
    expect([0, 1, 2].map((i) => slotRange(i, 3))).toEqual([
      [0, 5460],
      [5461, 10922],
      [10923, 16383],
    ]);
    expect(slotRange(0, 1)).toEqual([0, 16383]);
  });

  it('keeps K=1 exactly the queue the service always had', () => {
    expect(deliveryShards('{sb}', 1)).toEqual([{ prefix: '{sb}', name: 'webhook-delivery' }]);
    expect(deliveryShards('sb', 1)).toEqual([{ prefix: 'sb', name: 'webhook-delivery' }]);
  });

  it('puts partition i of K in the i-th of K slot ranges, under distinct tags, with or without a tag', () => {
    for (const k of [2, 3, 5, 16]) {
      const parts = deliveryShards('{sb}', k);
      expect(new Set(parts.map(shardKey)).size).toBe(k);
      parts.forEach((p, i) => {
        const [first, last] = slotRange(i, k);
        const slot = keySlot(`${p.prefix}:${p.name}:wait`);
        expect(slot).toBeGreaterThanOrEqual(first);
        expect(slot).toBeLessThanOrEqual(last);
        expect(p.name).toBe(`webhook-delivery-p${i}`);
        expect(p.prefix).toMatch(/^\{sb-\d+\}$/);
      });
    }
    const plain = deliveryShards('sb', 3);
    expect(plain.map((p) => p.prefix)).toEqual(deliveryShards('{sb}', 3).map((p) => p.prefix.replace(/[{}]/g, '')));
    expect(deliveryShards('app{x}', 2)[1]!.prefix).toMatch(/^app\{x-\d+\}$/);
  });

  it('names a partition by one string and reads it back', () => {
    const [p] = deliveryShards('{sb}', 4);
    expect(parseShardKey(shardKey(p!))).toEqual(p);
    expect(parseShardKey('nocolon')).toBeNull();
  });

  it('hashes with FNV-1a 32 (its published test vectors) and routes stably over K', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
    // Over UTF-8 bytes (c3 bc), not UTF-16 code units.
    expect(fnv1a32('ü')).toBe(0x119dd44a);
    expect(shardOfKey('anything', 1)).toBe(0);
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) counts[shardOfKey(`webhook-${i}`, 3)]!++;
    // Spread evenly enough that no partition is idle (a wide margin: ±20% of 1000).
    for (const c of counts) expect(c).toBeGreaterThan(800);
  });
});
