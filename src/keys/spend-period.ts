// The spend-cap period of a refilling key, in UTC. The database computes the same periods (the
// spend_period_start SQL function) for the charge itself; this copy only answers reads (remainingCredits,
// nextRefillAt), so the two must agree: test/integration/key-spend-refill.test.ts checks them against each other.

export type SpendInterval = 'daily' | 'monthly';

const DAY_MS = 24 * 3600_000;
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
const refillIn = (year: number, month: number, day: number) =>
  Date.UTC(year, month, Math.min(day, daysIn(year, month)));

/** The start of the period that holds `at`. */
export function periodStart(interval: SpendInterval, refillDay: number | null, at: Date): Date {
  const t = at.getTime();
  if (interval === 'daily') return new Date(t - (((t % DAY_MS) + DAY_MS) % DAY_MS));
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const thisMonth = refillIn(y, m, refillDay ?? 1);
  return new Date(t >= thisMonth ? thisMonth : refillIn(y, m - 1, refillDay ?? 1));
}

/** When the period that holds `at` ends and the cap refills. */
export function nextRefill(interval: SpendInterval, refillDay: number | null, at: Date): Date {
  const start = periodStart(interval, refillDay, at);
  if (interval === 'daily') return new Date(start.getTime() + DAY_MS);
  return new Date(refillIn(start.getUTCFullYear(), start.getUTCMonth() + 1, refillDay ?? 1));
}

/** What a key may still spend: its cap less this period's spending (a period not yet charged is untouched). */
export function remainingCredits(
  key: {
    spend_cap_credits: number | null;
    spent_credits: number;
    spend_cap_interval: SpendInterval | null;
    spend_cap_refill_day: number | null;
    spend_period_start: Date | null;
  },
  at: Date,
): number | null {
  if (key.spend_cap_credits === null) return null;
  if (key.spend_cap_interval) {
    const current = periodStart(key.spend_cap_interval, key.spend_cap_refill_day, at);
    if (!key.spend_period_start || key.spend_period_start.getTime() < current.getTime()) return key.spend_cap_credits;
  }
  return Math.max(0, key.spend_cap_credits - key.spent_credits);
}
