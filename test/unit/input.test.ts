import { describe, expect, it } from 'vitest';
import { hasIdShape, idOf, jsonObject, parseRfc3339, text, timestampInput } from '../../src/platform/input.js';
import { exceedsJsonDepth, inspectJson, MAX_JSON_DEPTH } from '../../src/platform/json-inspect.js';

/** A deterministic generator (mulberry32), so a failure replays. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomJson(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * (depth > 4 ? 5 : 7));
  const chars = ['a', 'é', '😀', '"', '\\', '\n', '\u0001', '€', 'z', '\u2028'];
  const str = () =>
    Array.from({ length: Math.floor(next() * 8) }, () => chars[Math.floor(next() * chars.length)]).join('');
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return [0, -0, 1.5, -1e21, 1e-7, 123456789012345680000, Number.MAX_SAFE_INTEGER][Math.floor(next() * 7)];
    case 3:
      return str();
    case 4:
      return Math.floor(next() * 1000) - 500;
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(next, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * 4) }, () => [str(), randomJson(next, depth + 1)]),
      );
  }
}

const nestedObject = (depth: number) => {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let i = 1; i < depth; i++) node = (node.a = {}) as Record<string, unknown>;
  return root;
};

describe('inspectJson', () => {
  it('measures exactly the UTF-8 bytes JSON.stringify would write', () => {
    const next = rng(11);
    for (let i = 0; i < 2_000; i++) {
      const value = randomJson(next);
      expect(inspectJson(value)).toEqual({ bytes: Buffer.byteLength(JSON.stringify(value)) });
    }
  });

  it('refuses nesting past the limit without recursion, even 100,000 levels deep', () => {
    expect(inspectJson(nestedObject(MAX_JSON_DEPTH))).toHaveProperty('bytes');
    expect(inspectJson(nestedObject(MAX_JSON_DEPTH + 1))).toMatchObject({
      problem: expect.stringContaining('nested deeper'),
    });
    expect(() => JSON.stringify(nestedObject(100_000))).toThrow(RangeError);
    expect(inspectJson(nestedObject(100_000))).toMatchObject({ problem: expect.stringContaining('nested deeper') });
  });

  it('names the path of unstorable text, an unstorable key, __proto__ and non-finite numbers', () => {
    expect(inspectJson({ a: [1, 'x\u0000'] })).toMatchObject({ path: ['a', 1] });
    expect(inspectJson({ a: { '\udc00': 1 } })).toMatchObject({ path: ['a', '\udc00'] });
    expect(inspectJson(JSON.parse('{"a":{"__proto__":{"polluted":1}}}'))).toMatchObject({ path: ['a', '__proto__'] });
    expect(inspectJson({ n: Infinity })).toMatchObject({ path: ['n'], problem: 'numbers must be finite' });
    expect(inspectJson({ f: () => 1 })).toMatchObject({ path: ['f'] });
  });
});

describe('exceedsJsonDepth', () => {
  it('counts brackets outside strings only', () => {
    expect(exceedsJsonDepth(Buffer.from('['.repeat(64) + ']'.repeat(64)))).toBe(false);
    expect(exceedsJsonDepth(Buffer.from('['.repeat(65) + ']'.repeat(65)))).toBe(true);
    expect(exceedsJsonDepth(Buffer.from(JSON.stringify({ s: '[{'.repeat(1000) })))).toBe(false);
    expect(exceedsJsonDepth(Buffer.from(JSON.stringify({ s: '\\"[[[' }) + '['.repeat(10)), 5)).toBe(true);
    expect(exceedsJsonDepth(Buffer.from(JSON.stringify({ s: '\\' }) + '['.repeat(3)), 3)).toBe(false);
  });
});

describe('the shared building blocks', () => {
  it('text() refuses NUL and lone surrogates and keeps pairs', () => {
    expect(text().safeParse('a\u0000').success).toBe(false);
    expect(text().safeParse('\ud800x').success).toBe(false);
    expect(text().safeParse('😀').success).toBe(true);
  });

  it('ids are judged by prefix and alphabet, or as a UUID', () => {
    expect(hasIdShape('agt', 'agt_4Fz0aBcDeFgHiJkLmNoP')).toBe(true);
    for (const bad of ['agt_', 'ct_4Fz0', 'agt_4F-z', 'agt_4Fz0\u0000', `agt_${'a'.repeat(65)}`, ' agt_abc'])
      expect(hasIdShape('agt', bad), bad).toBe(false);
    expect(hasIdShape('uuid', '7D4E3A52-3D0C-4C45-9D4A-2B1F0F6F6A11')).toBe(true);
    expect(hasIdShape('uuid', 'agt_4Fz0aBcDeFgHiJkLmNoP')).toBe(false);
    expect(idOf('msg').safeParse('msg_abc').success).toBe(true);
  });

  it('jsonObject() refuses what is not an object and reports a nested problem by its path', () => {
    expect(jsonObject(100).safeParse([]).success).toBe(false);
    const res = jsonObject(100).safeParse({ a: { b: ['\u0000'] } });
    expect(res.error?.issues[0]?.path).toEqual(['a', 'b', 0]);
    expect(jsonObject(10).safeParse({ a: 'x'.repeat(10) }).success).toBe(false);
  });
});

describe('timestampInput', () => {
  const parse = (v: string) => timestampInput().safeParse(v);

  it('takes every RFC 3339 form and answers the one form: UTC with milliseconds', () => {
    expect(parse('2026-12-01T00:00:00Z').data).toBe('2026-12-01T00:00:00.000Z');
    expect(parse('2026-12-01t00:00:00z').data).toBe('2026-12-01T00:00:00.000Z');
    expect(parse('2026-12-01T02:30:00+02:30').data).toBe('2026-12-01T00:00:00.000Z');
    expect(parse('2026-11-30T19:00:00.5-05:00').data).toBe('2026-12-01T00:00:00.500Z');
    expect(parse('2026-12-01T00:00:00.123456789Z').data).toBe('2026-12-01T00:00:00.123Z');
    expect(parse('2024-02-29T00:00:00.000Z').data).toBe('2024-02-29T00:00:00.000Z');
  });

  it('refuses what is not one, or names no real instant, saying what it takes', () => {
    for (const bad of [
      '2026-12-01',
      '2026-12-01T00:00Z',
      '2026-12-01 00:00:00Z',
      '2026-12-01T00:00:00',
      '2026-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-12-01T24:00:00Z',
      '2026-12-31T23:59:60Z',
      '2026-12-01T00:00:00+24:00',
      '1764547200',
    ]) {
      const result = parse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error!.issues[0]!.message).toBe('must be an RFC 3339 timestamp, e.g. 2026-12-01T00:00:00Z');
    }
    expect(parseRfc3339('2026-02-30T00:00:00Z')).toBeNull();
  });
});
