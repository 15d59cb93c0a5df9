// Which thresholds one charge crossed. A charge moves a counter from `before` to `after` under a row lock, so the
// intervals of concurrent charges never overlap and exactly one charge contains each crossing: that charge, and
// only it, emits the event, in its own transaction. Integer arithmetic only (no 0.8 × cap rounding).

/** The spend-cap percentages (80, 100) that spending from `before` to `after` of `cap` crossed. */
export function spendCapCrossings(cap: number, before: number, after: number): Array<80 | 100> {
  if (cap <= 0) return [];
  const crossed: Array<80 | 100> = [];
  if (before * 5 < cap * 4 && after * 5 >= cap * 4) crossed.push(80);
  if (before < cap && after >= cap) crossed.push(100);
  return crossed;
}

/** The balance fell below the account's threshold (0 turns this off: a balance never goes below zero). */
export const fellBelow = (threshold: number, before: number, after: number): boolean =>
  before >= threshold && after < threshold;

/** The balance reached zero. */
export const reachedZero = (before: number, after: number): boolean => before > 0 && after <= 0;
