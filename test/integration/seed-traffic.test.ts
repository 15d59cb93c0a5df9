import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintainPartitions } from '../../src/maintenance/partitions.service.js';
import { dayStart } from '../../src/maintenance/partitions.repository.js';
import { DAY_MS } from '../../src/maintenance/retention.js';
import { uuidV7Time } from '../../src/platform/ids.js';
import { seedTraffic } from '../helpers/seed-traffic.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// The seeding the query-plan test and the scale benchmark share (test/helpers/seed-traffic.ts), at a tiny size:
// one event, delivery and attempt per g, every day of the range written, ids and partitions as the service
// makes them, pending deliveries only where asked, and the expired day droppable by the retention pass.

let t: TestContext;
const ROWS = 3000;
// The range ends at least an hour into today, so that today holds rows even when the test runs just after midnight
// (3,000 rows over four days and a few seconds would leave today's seconds empty).
const now = Math.max(Date.now(), dayStart(new Date()).getTime() + 3600_000);
const from = new Date(dayStart(new Date(now)).getTime() - 4 * DAY_MS);
const pendingSince = new Date(now - DAY_MS);

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_RETENTION_DAYS: '3' });
  await seedTraffic(t.deps, {
    rows: ROWS,
    from,
    to: new Date(now),
    accounts: 7,
    webhooks: 20,
    skewed: true,
    payload: 'message',
    pendingSince,
  });
});
afterAll(() => t?.close());

const count = async (table: string) => Number((await t.deps.db(table).count<{ n: string }[]>('* as n'))[0]!.n);

describe('seeded webhook traffic', () => {
  it('writes as many events, deliveries and attempts as asked, every one linked', async () => {
    expect(await count('events')).toBe(ROWS);
    expect(await count('webhook_deliveries')).toBe(ROWS);
    expect(await count('webhook_attempts')).toBe(ROWS);
    const { rows } = await t.deps.db.raw(`SELECT count(*) AS n FROM webhook_deliveries d
      JOIN events e ON e.id = d.event_id AND e.created_at = d.created_at AND e.account_id = d.account_id
      JOIN webhooks w ON w.id = d.webhook_id AND w.account_id = d.account_id
      JOIN webhook_attempts a ON a.delivery_id = d.id`);
    expect(Number(rows[0].n)).toBe(ROWS);
  });

  it('spreads the rows over every day of the range, with ids of the service lengths and UUIDv7 deliveries', async () => {
    const { rows } = await t.deps.db
      .raw(`SELECT count(DISTINCT date_trunc('day', created_at AT TIME ZONE 'UTC')) AS days,
      min(created_at) AS oldest, max(created_at) AS newest FROM events`);
    expect(Number(rows[0].days)).toBe(5);
    expect(new Date(rows[0].oldest).getTime()).toBeGreaterThanOrEqual(from.getTime());
    const d = await t.deps.db('webhook_deliveries').first();
    expect(uuidV7Time(d.id)?.getTime()).toBe(new Date(d.created_at).getTime());
    expect(d.account_id).toHaveLength(25);
    expect(d.webhook_id).toHaveLength(23);
    expect(d.event_id).toHaveLength(24);
  });

  it('has every status, pending only in the last day and due later', async () => {
    const { rows } = await t.deps.db
      .raw(`SELECT status, count(*) AS n, min(created_at) AS oldest, bool_and(next_attempt_at > now()) AS later
      FROM webhook_deliveries GROUP BY status`);
    const by = Object.fromEntries(rows.map((r: { status: string }) => [r.status, r]));
    expect(Object.keys(by).sort()).toEqual(['exhausted', 'failed', 'pending', 'succeeded']);
    expect(new Date(by.pending.oldest).getTime()).toBeGreaterThanOrEqual(pendingSince.getTime());
    expect(by.pending.later).toBe(true);
  });

  it('leaves the expired day to the retention pass', async () => {
    const result = await maintainPartitions(t.deps);
    expect(result.keptForPending).toEqual([]);
    expect(result.dropped.filter((n) => !n.endsWith(from.toISOString().slice(0, 10).replaceAll('-', '')))).toEqual([]);
    expect(result.dropped).toHaveLength(3);
  });
});
