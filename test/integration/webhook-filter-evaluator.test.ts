import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rand, type Rand } from '../fuzz/random.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// The one evaluator of subscription filters is Postgres's sb_filter_matches (docs/webhook-filters.md): every case
// here runs through it, on the migrated database, with the plan the webhooks row generates (sb_filter_plan), as
// the fan-out calls it.

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t?.close();
});

/** sb_filter_matches of each [filter, payload] pair, in one statement. */
async function matches(pairs: Array<[unknown, unknown]>): Promise<boolean[]> {
  const { rows } = await t.deps.db.raw<{ rows: Array<{ m: boolean }> }>(
    `SELECT sb_filter_matches(sb_filter_plan(x -> 0), x -> 1) AS m FROM jsonb_array_elements(?::jsonb) WITH ORDINALITY AS p(x, n)
      ORDER BY n`,
    [JSON.stringify(pairs)],
  );
  return rows.map((r) => r.m);
}

const message = { channel: 'sms', amount: 12, vip: false, subject: null, tags: ['a', 'b'], meta: { tier: 'gold' } };

// [what it shows, filter, payload, matches]
const CASES: Array<[string, unknown, unknown, boolean]> = [
  ['a bare literal is $eq', { channel: 'sms' }, message, true],
  ['a bare literal that differs', { channel: 'email' }, message, false],
  ['$eq of a number compares by value', { amount: { $eq: 12.0 } }, message, true],
  ['$eq of another type never matches', { amount: '12' }, message, false],
  ['$eq false', { vip: false }, message, true],
  ['$ne', { channel: { $ne: 'email' } }, message, true],
  ['$ne of the value', { channel: { $ne: 'sms' } }, message, false],
  ['$ne of a missing path matches', { nope: { $ne: 'x' } }, message, true],
  ['$in', { channel: { $in: ['sms', 'email'] } }, message, true],
  ['$in without it', { channel: { $in: ['chat', 'email'] } }, message, false],
  ['$nin', { channel: { $nin: ['chat', 'email'] } }, message, true],
  ['$nin with it', { channel: { $nin: ['sms'] } }, message, false],
  ['$nin of a missing path matches', { nope: { $nin: ['sms'] } }, message, true],
  ['$in with null matches a null', { subject: { $in: [null, 'hi'] } }, message, true],
  ['$gt number', { amount: { $gt: 10 } }, message, true],
  ['$gt at the value', { amount: { $gt: 12 } }, message, false],
  ['$gte at the value', { amount: { $gte: 12 } }, message, true],
  ['$lt', { amount: { $lt: 12.5 } }, message, true],
  ['$lte below the value', { amount: { $lte: 11 } }, message, false],
  ['$gt with a string operand on a number', { amount: { $gt: '1' } }, message, false],
  ['$gt of strings by code point', { channel: { $gt: 'SMS' } }, message, true],
  ['$lt of strings by code point ("Z" < "a")', { channel: { $lt: 'Z' } }, message, false],
  ['$gte of ISO timestamps', { at: { $gte: '2026-11-01T00:00:00.000Z' } }, { at: '2026-11-29T05:00:00.000Z' }, true],
  ['$gt of a missing path', { nope: { $gt: 1 } }, message, false],
  ['$startsWith', { channel: { $startsWith: 'sm' } }, message, true],
  ['$startsWith is case-sensitive', { channel: { $startsWith: 'SM' } }, message, false],
  ['$startsWith of a number', { amount: { $startsWith: '1' } }, message, false],
  ['$exists true', { channel: { $exists: true } }, message, true],
  ['$exists true of a null', { subject: { $exists: true } }, message, false],
  ['$exists false of a null', { subject: { $exists: false } }, message, true],
  ['$exists false of a missing path', { nope: { $exists: false } }, message, true],
  ['$exists false of a present value', { channel: { $exists: false } }, message, false],
  ['$exists true of an object', { meta: { $exists: true } }, message, true],
  ['null is absent', { subject: null }, message, true],
  ['null as a literal of a missing path', { nope: null }, message, true],
  ['$ne null of a present value', { channel: { $ne: null } }, message, true],
  ['$ne null of a null', { subject: { $ne: null } }, message, false],
  ['a dotted path', { 'meta.tier': 'gold' }, message, true],
  ['a dotted path through a scalar is missing', { 'channel.x': { $exists: false } }, message, true],
  ['an array matches when an element equals', { tags: 'b' }, message, true],
  ['an array with no equal element', { tags: 'c' }, message, false],
  ['$in against an array', { tags: { $in: ['c', 'a'] } }, message, true],
  ['$ne against an array with the element', { tags: { $ne: 'a' } }, message, false],
  ['$nin against an array without them', { tags: { $nin: ['x', 'y'] } }, message, true],
  ['$startsWith against an array', { tags: { $startsWith: 'b' } }, message, true],
  ['$gt against an array of numbers', { n: { $gt: 5 } }, { n: [1, 7] }, true],
  ['$lt against an array of numbers', { n: { $lt: 1 } }, { n: [1, 7] }, false],
  ['a numeric segment indexes an array', { 'tags.1': 'b' }, message, true],
  ['an index past the end is missing', { 'tags.5': { $exists: false } }, message, true],
  ['several operators on one path are all required', { amount: { $gt: 10, $lt: 12 } }, message, false],
  ['several operators on one path, all true', { amount: { $gt: 10, $lte: 12 } }, message, true],
  ['several paths are all required', { channel: 'sms', vip: true }, message, false],
  ['$and', { $and: [{ channel: 'sms' }, { amount: { $gte: 10 } }] }, message, true],
  ['$and with one false', { $and: [{ channel: 'sms' }, { amount: { $gte: 100 } }] }, message, false],
  ['$or', { $or: [{ amount: { $gte: 100 } }, { vip: false }] }, message, true],
  ['$or all false', { $or: [{ amount: { $gte: 100 } }, { vip: true }] }, message, false],
  ['$not', { $not: { channel: 'email' } }, message, true],
  ['$not of a match', { $not: { channel: 'sms' } }, message, false],
  [
    'nested $and/$or/$not beside a path',
    {
      channel: { $in: ['sms', 'email'] },
      $or: [{ amount: { $gte: 100 } }, { $and: [{ 'meta.tier': 'gold' }, { $not: { vip: true } }] }],
    },
    message,
    true,
  ],
  [
    'nested, one leaf flipped',
    {
      channel: { $in: ['sms', 'email'] },
      $or: [{ amount: { $gte: 100 } }, { $and: [{ 'meta.tier': 'gold' }, { $not: { vip: false } }] }],
    },
    message,
    false,
  ],
];

describe('sb_filter_matches of sb_filter_plan', () => {
  it('evaluates every operator, arrays, null and missing paths, and nesting as docs/webhooks.md says', async () => {
    const got = await matches(CASES.map(([, f, p]) => [f, p]));
    const wrong = CASES.filter(([, , , want], i) => got[i] !== want).map(([name]) => name);
    expect(wrong).toEqual([]);
  });

  it('never raises: a filter of the wrong shape (never stored: the API refuses it) matches nothing', async () => {
    expect(
      await matches([
        [[1], message],
        [{ $and: {} }, message],
        [{ $not: [] }, message],
        [{ a: { $x: 1 } }, message],
        [{ $and: [1] }, message],
        [{ channel: { $in: 'sms' } }, message],
      ]),
    ).toEqual([false, false, false, false, false, false]);
  });

  it('keeps the laws of its operators on random filters and payloads', async () => {
    const r = rand(0x5eed);
    const pairs: Array<[unknown, unknown]> = [];
    const laws: Array<(m: () => boolean) => boolean> = [];
    // Each law adds the pairs it needs and checks their answers, read in order.
    for (let i = 0; i < 300; i++) {
      const payload = randomPayload(r);
      const f = randomFilter(r, 2);
      const g = randomFilter(r, 2);
      const path = r.pick(PATHS);
      const x = r.pick(VALUES);
      const list = [r.pick(VALUES), r.pick(VALUES)];
      const ask = (...filters: unknown[]) => filters.forEach((fl) => pairs.push([fl, payload]));
      ask(f, g, { $not: f }, { $and: [f, g] }, { $or: [f, g] });
      ask({ [path]: { $in: list } }, { [path]: { $nin: list } });
      ask({ [path]: x }, { [path]: { $ne: x } }, { [path]: { $in: [x] } });
      ask({ [path]: { $gte: x } }, { $or: [{ [path]: { $gt: x } }, { [path]: x }] });
      ask({ ...f, ...g }, { $and: [f, g] });
      laws.push((m) => {
        const [fm, gm, not, and, or] = [m(), m(), m(), m(), m()];
        const [inL, ninL] = [m(), m()];
        const [eq, ne, in1] = [m(), m(), m()];
        const [gte, gtOrEq] = [m(), m()];
        const [merged, and2] = [m(), m()];
        const disjoint = Object.keys(f).every((k) => !(k in g));
        return (
          not === !fm &&
          and === (fm && gm) &&
          or === (fm || gm) &&
          ninL === !inL &&
          ne === !eq &&
          in1 === eq &&
          (typeof x === 'boolean' || x === null || gte === gtOrEq) &&
          (!disjoint || merged === and2)
        );
      });
    }
    const answers = await matches(pairs);
    let next = 0;
    const m = () => answers[next++]!;
    const broken = laws.map((law, i) => (law(m) ? null : i)).filter((i) => i !== null);
    expect(broken).toEqual([]);
    expect(next).toBe(answers.length);
  });
});

const PATHS = ['a', 'b', 'o.c', 'arr', 'gone'];
const VALUES: unknown[] = [0, 1, 2.5, -3, 'a', 'b', 'ab', '', true, false, null];

function randomPayload(r: Rand): Record<string, unknown> {
  const value = (): unknown => (r.chance(0.2) ? [r.pick(VALUES), r.pick(VALUES)] : r.pick(VALUES));
  const p: Record<string, unknown> = {};
  for (const k of ['a', 'b', 'arr']) if (r.chance(0.8)) p[k] = value();
  if (r.chance(0.7)) p.o = r.chance(0.8) ? { c: value() } : value();
  return p;
}

function randomFilter(r: Rand, depth: number): Record<string, unknown> {
  const roll = r.int(0, depth > 0 ? 5 : 2);
  const path = r.pick(PATHS);
  const x = r.pick(VALUES);
  switch (roll) {
    case 0:
      return { [path]: x };
    case 1:
      return { [path]: { [r.pick(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte'])]: x } };
    case 2:
      return r.chance(0.5)
        ? { [path]: { [r.pick(['$in', '$nin'])]: [x, r.pick(VALUES)] } }
        : { [path]: r.chance(0.5) ? { $exists: r.chance(0.5) } : { $startsWith: r.pick(['a', '', 'b']) } };
    case 3:
      return { $not: randomFilter(r, depth - 1) };
    default:
      return { [roll === 4 ? '$and' : '$or']: [randomFilter(r, depth - 1), randomFilter(r, depth - 1)] };
  }
}
