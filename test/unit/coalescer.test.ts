import { describe, expect, it } from 'vitest';
import { createCoalescer } from '../../src/platform/coalescer.js';
import { waitUntil } from '../helpers/wait.js';

// The coalescer's contract, on a plain function: one call per turn, each caller its own result, and a failing
// item failing alone.

describe('createCoalescer', () => {
  it('hands the calls of one turn to one run, in order, each caller getting its own result', async () => {
    const calls: number[][] = [];
    const double = createCoalescer(
      async (items: number[]) => {
        calls.push(items);
        return items.map((i) => i * 2);
      },
      { maxBatch: 3 },
    );
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => double(i)));
    expect(results).toEqual([2, 4, 6, 8, 10]);
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    // A later turn is a new batch.
    expect(await double(7)).toBe(14);
    expect(calls).toHaveLength(3);
  });

  it('re-runs the items of a failed batch one by one, so only the bad item fails', async () => {
    const calls: string[][] = [];
    const store = createCoalescer(async (items: string[]) => {
      calls.push(items);
      if (items.some((i) => i.includes('\u0000'))) throw new Error('invalid byte sequence');
      return items.map((i) => i.toUpperCase());
    });
    const settled = await Promise.allSettled(['a', 'b\u0000', 'c'].map((i) => store(i)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(settled[0]).toMatchObject({ value: 'A' });
    expect(settled[2]).toMatchObject({ value: 'C' });
    expect(calls).toEqual([['a', 'b\u0000', 'c'], ['a'], ['b\u0000'], ['c']]);
  });

  it('fails every item at once when the error says the backend is away, and survives a run that throws synchronously', async () => {
    let runs = 0;
    const down = createCoalescer(
      (items: number[]): Promise<number[]> => {
        runs++;
        if (items.length > 1) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        return Promise.resolve(items);
      },
      { failsAll: (err) => (err as { code?: string }).code === 'ECONNREFUSED' },
    );
    const settled = await Promise.allSettled([1, 2, 3].map((i) => down(i)));
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
    expect(runs).toBe(1);
  });

  it('with a window, gathers calls of later turns into one run, and runs a full batch at once', async () => {
    const calls: number[][] = [];
    const echo = createCoalescer(
      async (items: number[]) => {
        calls.push(items);
        return items;
      },
      { windowMs: 50, maxBatch: 3 },
    );
    const first = echo(1);
    await new Promise((r) => setImmediate(r));
    const second = echo(2);
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(calls).toEqual([[1, 2]]);
    // Three items fill the batch: it runs without waiting for the window (the fourth starts the next one).
    const full = [3, 4, 5, 6].map((i) => echo(i));
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    expect(await Promise.all(full)).toEqual([3, 4, 5, 6]);
    expect(calls).toEqual([[1, 2], [3, 4, 5], [6]]);
  });

  it('with flushAt, closes the window once that many calls wait, and still runs a batch whole', async () => {
    const calls: number[][] = [];
    const gates: Array<() => void> = [];
    const echo = createCoalescer(
      async (items: number[]) => {
        calls.push(items);
        await new Promise<void>((r) => gates.push(r));
        return items;
      },
      // A window no test waits out: only flushAt can close it.
      { windowMs: 60_000, flushAt: 2, inFlight: 1 },
    );
    const first = [1, 2].map((i) => echo(i));
    await waitUntil(() => calls.length === 1);
    expect(calls).toEqual([[1, 2]]);
    // While that batch is out, more than flushAt gather; they go together when it returns, not flushAt at a time.
    const later = [3, 4, 5].map((i) => echo(i));
    gates.shift()!();
    expect(await Promise.all(first)).toEqual([1, 2]);
    await waitUntil(() => calls.length === 2);
    expect(calls[1]).toEqual([3, 4, 5]);
    gates.shift()!();
    expect(await Promise.all(later)).toEqual([3, 4, 5]);
  });

  it('with idleSkipsWindow, runs a call with none close before it at once; close calls wait', async () => {
    const calls: number[][] = [];
    const echo = createCoalescer(
      async (items: number[]) => {
        calls.push(items);
        return items;
      },
      { windowMs: 60_000, flushAt: 2, idleSkipsWindow: true },
    );
    // The first call has none before it: it does not wait the minute.
    expect(await echo(1)).toBe(1);
    expect(calls).toEqual([[1]]);
    // The next comes within the window of it, so it waits; only the third, filling the batch, closes the window.
    const second = echo(2);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([[1]]);
    const third = echo(3);
    expect(await Promise.all([second, third])).toEqual([2, 3]);
    expect(calls).toEqual([[1], [2, 3]]);
  });

  it('with one batch in flight, gathers the calls made meanwhile and runs them together when it returns', async () => {
    const calls: number[][] = [];
    const gates: Array<() => void> = [];
    const held = createCoalescer(
      async (items: number[]) => {
        calls.push(items);
        await new Promise<void>((r) => gates.push(r));
        return items;
      },
      { inFlight: 1 },
    );
    const first = held(1);
    await waitUntil(() => calls.length === 1);
    // Calls of three later turns while the first batch is out: none runs yet.
    const later: Array<Promise<number>> = [];
    for (const i of [2, 3, 4]) {
      later.push(held(i));
      await new Promise((r) => setImmediate(r));
    }
    expect(calls).toEqual([[1]]);
    gates.shift()!();
    expect(await first).toBe(1);
    await waitUntil(() => calls.length === 2);
    expect(calls[1]).toEqual([2, 3, 4]);
    gates.shift()!();
    expect(await Promise.all(later)).toEqual([2, 3, 4]);
    // Idle again: the next call goes in its own turn, waiting for nothing.
    const alone = held(5);
    await waitUntil(() => calls.length === 3);
    gates.shift()!();
    expect(await alone).toBe(5);
  });

  it('with one batch in flight, a failed batch lets the next one go', async () => {
    let fail = true;
    const calls: number[][] = [];
    const flaky = createCoalescer(
      async (items: number[]) => {
        calls.push(items);
        if (fail) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        return items;
      },
      { inFlight: 1, failsAll: () => true },
    );
    await expect(flaky(1)).rejects.toThrow('ECONNREFUSED');
    fail = false;
    expect(await Promise.all([flaky(2), flaky(3)])).toEqual([2, 3]);
    expect(calls).toEqual([[1], [2, 3]]);
  });
});
