// A seeded generator (mulberry32) and the hostile values the fuzz draws from. Request `i` of a run draws from
// its own generator, seeded from the run's seed and `i`, so one request can be replayed alone.

export interface Rand {
  next(): number;
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export function rand(seed: number): Rand {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

export const requestSeed = (seed: number, index: number) => (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;

/** A fragment of JSON text written as-is by `toJsonText` (for what JSON.stringify cannot produce). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify, except that RawJson fragments are written verbatim (for duplicate keys, -0, 1e400 …). */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const UNICODE = [
  'a',
  'Z',
  '0',
  ' ',
  'é',
  'ß',
  '€',
  '😀',
  '中',
  '\u202e',
  '\ufeff',
  '\u2028',
  '\uffff',
  '\t',
  '"',
  '\\',
  '/',
  '\u0001',
  '\u007f',
];

export function randomText(r: Rand, max = 24): string {
  return Array.from({ length: r.int(0, max) }, () => r.pick(UNICODE)).join('');
}

/** Strings a hostile client sends. Never English words, so a leak detector cannot mistake them for SQL. */
export function hostileString(r: Rand): string {
  switch (r.int(0, 17)) {
    case 0:
      return '\u0000';
    case 1:
      return `a\u0000b`;
    case 2:
      return '\u0000'.repeat(r.int(1, 5_000));
    case 3:
      return '\ud800';
    case 4:
      return `x\udc00y`;
    case 5:
      return '\ud83d';
    case 6:
      return 'x'.repeat(r.pick([255, 256, 1_001, 65_537, 100_001, 400_000]));
    case 7:
      return '😀'.repeat(r.int(1, r.chance(0.2) ? 40_000 : 50));
    case 8:
      return '';
    case 9:
      return ' '.repeat(r.int(1, 300));
    case 10:
      return randomText(r, 200);
    case 11:
      return r.pick(['2000-02-30T00:00:00Z', '+275760-09-13T00:00:00.000Z', '-1', '0', '2020', 'NaN', 'Infinity']);
    case 12:
      return r.pick(['../../x', '%00', '%ED%B0%80', '${x}', '{{x}}', '<b>', "'; --", 'a@b', '+1', 'https://']);
    case 13:
      return r.pick([
        'agt_',
        'agt_\u0000',
        'wh_0',
        'key_' + 'a'.repeat(70),
        '7d4e3a52-3d0c-4c45-9d4a-2b1f0f6f6a1',
        'ca_acct_x',
      ]);
    case 14:
      return 'a'.repeat(r.int(1, 64)) + '@example.com';
    case 15:
      return '+1' + '4'.repeat(r.int(1, 20));
    case 16:
      return 'é'.repeat(r.int(1, r.chance(0.2) ? 70_000 : 50));
    default:
      return randomText(r, 40);
  }
}

/** Text Postgres cannot store, alone or inside otherwise plausible values. */
export function unstorableText(r: Rand): string {
  const bad = r.pick(['\u0000', '\ud800', '\udc00', '\ud83d']);
  return r.pick([
    bad,
    `a${bad}`,
    `${bad}${bad}`,
    `name ${bad}`,
    `a${bad}@example.com`,
    `+1415${bad}5550123`,
    bad.repeat(r.int(1, 3_000)),
  ]);
}

/** Numbers at the edges, as raw JSON text where JSON.stringify could not write them. */
export function edgeNumber(r: Rand): unknown {
  return r.pick<unknown>([
    0,
    1,
    -1,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53,
    2 ** 53 + 2,
    2 ** 63,
    1.5,
    -0.000001,
    1e308,
    -1e308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    new RawJson('-0'),
    new RawJson('1e400'),
    new RawJson('-1e400'),
    new RawJson('1e-400'),
    new RawJson('123456789012345678901234567890'),
    new RawJson('0.1e1'),
    new RawJson('1E2'),
  ]);
}

/** Any value, hostile or not; `depth` bounds how much structure it may have. */
export function hostileValue(r: Rand, depth = 0): unknown {
  switch (r.int(0, depth > 2 ? 5 : 9)) {
    case 0:
      return hostileString(r);
    case 1:
      return edgeNumber(r);
    case 2:
      return r.pick([null, true, false]);
    case 3:
      return randomText(r);
    case 4:
      return r.int(-5, 200);
    case 5:
      return new RawJson(
        r.pick([
          '{"__proto__":{"polluted":1}}',
          '{"constructor":{"prototype":{"polluted":1}}}',
          '{"a":1,"a":{"b":2}}',
          '{"prototype":null}',
        ]),
      );
    case 6:
      return Array.from({ length: r.int(0, 4) }, () => hostileValue(r, depth + 1));
    case 7:
      return new RawJson(`[${'7,'.repeat(r.pick([1_000, 50_000, 300_000]))}7]`); // a huge array, built as text
    case 8:
      return nestedRaw(r.pick([3, 63, 64, 65, 200, 5_000, 60_000]), r);
    default:
      return Object.fromEntries(
        Array.from({ length: r.int(0, 4) }, () => [
          r.chance(0.2) ? r.pick(['__proto__', 'constructor', '\u0000', '\udc00', '']) : randomText(r, 10),
          hostileValue(r, depth + 1),
        ]),
      );
  }
}

export function nestedRaw(depth: number, r: Rand): RawJson {
  const [open, close] = r.chance(0.5) ? ['[', ']'] : ['{"a":', '}'];
  return new RawJson(open.repeat(depth) + '1' + close.repeat(r.chance(0.9) ? depth : r.int(0, depth)));
}

/** Bytes that are not UTF-8, to splice into a body or a path. */
export const INVALID_UTF8 = [
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xff]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xc0, 0x80]),
];
