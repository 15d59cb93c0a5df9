import { describe, expect, it } from 'vitest';
import { fellBelow, reachedZero, spendCapCrossings } from '../../src/billing/thresholds.js';

describe('threshold crossings of one charge', () => {
  it('reports 80% and 100% of a cap only for the charge whose interval contains them', () => {
    expect(spendCapCrossings(50, 39, 40)).toEqual([80]);
    expect(spendCapCrossings(50, 40, 41)).toEqual([]);
    expect(spendCapCrossings(50, 49, 50)).toEqual([100]);
    expect(spendCapCrossings(50, 30, 50)).toEqual([80, 100]);
    // 80% of 7 is 5.6: reached at 6, not at 5 (integer arithmetic, no rounding down).
    expect(spendCapCrossings(7, 4, 5)).toEqual([]);
    expect(spendCapCrossings(7, 5, 6)).toEqual([80]);
    expect(spendCapCrossings(0, 0, 0)).toEqual([]);
    // Every unit step from 0 to the cap crosses each threshold exactly once.
    for (const cap of [1, 3, 10, 99, 100]) {
      const all = Array.from({ length: cap }, (_, i) => spendCapCrossings(cap, i, i + 1)).flat();
      expect(all.sort()).toEqual([100, 80]);
    }
  });

  it('falls below the low-credits threshold when it leaves it, not while already below; 0 never fires', () => {
    expect(fellBelow(100, 100, 99)).toBe(true);
    expect(fellBelow(100, 105, 100)).toBe(false);
    expect(fellBelow(100, 99, 98)).toBe(false);
    expect(fellBelow(0, 1, 0)).toBe(false);
    expect(reachedZero(5, 0)).toBe(true);
    expect(reachedZero(0, 0)).toBe(false);
    expect(reachedZero(6, 1)).toBe(false);
  });
});
