import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureDayPartitions,
  maintainPartitions,
  PARTITION_DAYS_AHEAD,
} from '../../src/maintenance/partitions.service.js';
import { dayStart, listPartitions, partitionName } from '../../src/maintenance/partitions.repository.js';
import { DAY_MS } from '../../src/maintenance/retention.js';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Retention by whole days (WEBHOOK_RETENTION_DAYS=3 here): reads stop showing rows past retention at once, the
// maintain-partitions job drops expired days (attempts, then deliveries, then events) but never a day that still
// holds a pending delivery, creates days ahead, and finishes what an interrupted run left behind.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let webhookId: string;
const today = dayStart(new Date());
const daysAgo = (n: number) => new Date(today.getTime() - n * DAY_MS + 3600_000);

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_RETENTION_DAYS: '3', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  api = client(t.url);
  owner = await signupAccount(api);
  webhookId = (
    await api.post('/v1/webhooks', {
      token: owner.token,
      body: { url: 'http://127.0.0.1:9/hook', events: ['message.received'] },
    })
  ).body.id;
  // Days before the template existed: the partitions an installation would have after ten days of traffic.
  await ensureDayPartitions(t.deps, new Date(today.getTime() - 10 * DAY_MS), 10);
});
afterAll(() => t?.close());

/** One event of `at`, its delivery (stamped with that time) in `status`, and one attempt. */
async function oldDelivery(at: Date, status: 'succeeded' | 'pending'): Promise<string> {
  const eventId = `evt_old${at.getTime()}${status}`;
  await t.deps
    .db('events')
    .insert({ id: eventId, account_id: owner.accountId, type: 'message.received', payload: {}, created_at: at });
  const { rows } = await t.deps.db.raw(
    `INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, event, status, attempts, created_at, updated_at)
     VALUES (sb_uuid_v7(?::timestamptz), ?, ?, ?, 'message.received', ?, 1, ?, ?) RETURNING id`,
    [at, owner.accountId, webhookId, eventId, status, at, at],
  );
  const id = rows[0].id as string;
  await t.deps.db('webhook_attempts').insert({
    id: `att_old${at.getTime()}${status}`,
    delivery_id: id,
    webhook_id: webhookId,
    account_id: owner.accountId,
    event: 'message.received',
    attempt_number: 1,
    status: 'failed',
    url: 'http://127.0.0.1:9/hook',
    duration_ms: 1,
    created_at: at,
  });
  return id;
}

const names = async (table: 'events' | 'webhook_deliveries' | 'webhook_attempts') =>
  (await listPartitions(t.deps.db, table)).map((p) => p.name);

describe('retention', () => {
  it('hides rows past retention at once, and the job drops whole expired days but keeps one with a pending delivery', async () => {
    const finalOld = await oldDelivery(daysAgo(8), 'succeeded');
    const pendingOld = await oldDelivery(daysAgo(6), 'pending');
    const recentEvent = await transactWithEvents(t.deps, owner.accountId, (_trx, emit) =>
      emit({ type: 'message.received', payload: { id: 'recent' } }),
    );
    const recent = (await t.deps.db('webhook_deliveries').where({ event_id: recentEvent }).first())!;

    const listed = (
      await api.get(`/v1/webhooks/${webhookId}/deliveries?limit=100`, { token: owner.token })
    ).body.data.map((d: { id: string }) => d.id);
    expect(listed).toEqual([recent.id]);
    const attempts = (await api.get(`/v1/webhooks/${webhookId}/attempts?limit=100`, { token: owner.token })).body.data;
    expect(attempts.every((a: { deliveryId: string }) => a.deliveryId === recent.id)).toBe(true);
    expect(
      (await api.get(`/v1/webhooks/${webhookId}/attempts?deliveryId=${finalOld}`, { token: owner.token })).body.data,
    ).toEqual([]);
    expect(
      (await api.post(`/v1/webhooks/${webhookId}/deliveries/${finalOld}/redeliver`, { token: owner.token })).status,
    ).toBe(404);
    const feed = (await api.get('/v1/feed?limit=100', { token: owner.token })).body.data.map(
      (e: { id: string }) => e.id,
    );
    expect(feed).toEqual([recentEvent]);

    const result = await maintainPartitions(t.deps);
    const eight = (table: Parameters<typeof partitionName>[0]) => partitionName(table, dayStart(daysAgo(8)));
    const six = (table: Parameters<typeof partitionName>[0]) => partitionName(table, dayStart(daysAgo(6)));
    expect(result.dropped).toEqual(
      expect.arrayContaining([
        eight('webhook_attempts'),
        eight('webhook_deliveries'),
        eight('events'),
        six('webhook_attempts'),
      ]),
    );
    expect(result.keptForPending).toEqual([six('webhook_deliveries')]);
    expect(await names('webhook_deliveries')).toContain(six('webhook_deliveries'));
    // The pending delivery keeps its event, so it can still be sent.
    expect(await names('events')).toContain(six('events'));
    expect(await t.deps.db('webhook_deliveries').where({ id: pendingOld })).toHaveLength(1);
    expect(await t.deps.db('webhook_deliveries').where({ id: finalOld })).toHaveLength(0);
    // Nothing within retention was touched, and the days ahead exist.
    expect(await t.deps.db('webhook_deliveries').where({ id: recent.id })).toHaveLength(1);
    for (const table of ['events', 'webhook_deliveries', 'webhook_attempts'] as const) {
      expect(await names(table)).toContain(
        partitionName(table, new Date(today.getTime() + PARTITION_DAYS_AHEAD * DAY_MS)),
      );
    }

    // Once it settles, the next run drops that day too.
    await t.deps.db('webhook_deliveries').where({ id: pendingOld }).update({ status: 'failed' });
    const next = await maintainPartitions(t.deps);
    expect(next.dropped).toEqual(expect.arrayContaining([six('webhook_deliveries'), six('events')]));
    expect(next.keptForPending).toEqual([]);
  });

  it('resumes a run that was killed mid-detach, and drops a table whose drop was interrupted after its detach', async () => {
    const table = 'webhook_attempts';
    const stuck = partitionName(table, dayStart(daysAgo(9)));
    const orphan = partitionName('events', dayStart(daysAgo(10)));
    // Expired days again (the run above dropped them): as if the last runs had been killed before reaching them.
    await ensureDayPartitions(t.deps, daysAgo(10), 1);
    await t.deps.db.raw(`ALTER TABLE events DETACH PARTITION ??`, [orphan]);

    // A DETACH … CONCURRENTLY whose second phase waits behind a reader, and whose backend is then killed.
    const url = t.deps.config.database.url;
    const reader = new pg.Client({ connectionString: url });
    const detacher = new pg.Client({ connectionString: url });
    await reader.connect();
    await detacher.connect();
    detacher.on('error', () => undefined);
    await reader.query(`BEGIN; SELECT 1 FROM ${table} LIMIT 1`);
    const detacherPid = (await detacher.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const detaching = detacher
      .query(`ALTER TABLE ${table} DETACH PARTITION ${stuck} CONCURRENTLY`)
      .catch((err: Error) => err);
    await waitUntil(
      async () => (await listPartitions(t.deps.db, table)).find((p) => p.name === stuck)?.detachPending,
      30_000,
      'the detach to be pending',
    );
    await t.deps.db.raw('SELECT pg_terminate_backend(?)', [detacherPid]);
    expect(await detaching).toBeInstanceOf(Error);
    await reader.query('ROLLBACK');
    await reader.end();
    await detacher.end().catch(() => undefined);

    const result = await maintainPartitions(t.deps);
    expect(result.dropped).toEqual(expect.arrayContaining([stuck, orphan]));
    const { rows } = await t.deps.db.raw(`SELECT count(*)::int AS n FROM pg_class WHERE relname IN (?, ?)`, [
      stuck,
      orphan,
    ]);
    expect(rows[0].n).toBe(0);
  });
});
