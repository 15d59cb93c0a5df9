import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createDb } from '../../src/platform/db.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, type Client } from '../helpers/http.js';
import { setupAccount } from '../helpers/setup-account.js';
import { waitUntil } from '../helpers/wait.js';
import { periodStart, type SpendInterval } from '../../src/keys/spend-period.js';

let t: TestContext;
let api: Client;
// A connection pool of the test's own: it holds the key row locked while the API's own pool queues chats behind it.
let side: Knex;

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  side = createDb(t.deps.config.database.url);
});
afterAll(async () => {
  await side?.destroy();
  await t.close();
});

const capEvents = async (accountId: string) =>
  (await t.deps.db('events').where({ account_id: accountId, type: 'api_key.spend_cap_reached' }))
    .map((e) => e.payload.percent as number)
    .sort((a, b) => a - b);

/**
 * Fires `n` chats at once while `prepare` holds the key row locked, waits until the API's whole pool is queued on
 * that lock, then commits the change: every queued charge then races the one that refills.
 */
async function raceChats(agentId: string, token: string, keyId: string, n: number, change: Record<string, unknown>) {
  const trx = await side.transaction();
  await trx('api_keys').where({ id: keyId }).forUpdate().first();
  await trx('api_keys').where({ id: keyId }).update(change);
  const answers = Array.from({ length: n }, () =>
    api.post(`/v1/agents/${agentId}/chat`, { token, body: { message: 'hello' } }),
  );
  // Most of the API's pool waits on the lock (a connection or two may belong to the process itself).
  const queued = (t.deps.db.client.pool.max as number) - 2;
  try {
    await waitUntil(
      async () => {
        const { rows } = await side.raw(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ? AND wait_event_type = 'Lock'`,
          [t.dbName],
        );
        return rows[0].n >= queued;
      },
      30_000,
      'the chats to queue on the key row',
    );
  } catch (err) {
    await trx.rollback();
    throw err;
  }
  await trx.commit();
  const results = await Promise.all(answers);
  return results.map((r) => (r.status === 202 ? 'ok' : r.body.error.code));
}

describe('refilling spend caps', () => {
  it('shows the cap, what remains, the interval and the next refill; refuses refills without a cap', async () => {
    const owner = await setupAccount(t);
    const daily = await api.post('/v1/api_keys', {
      token: owner.token,
      body: { name: 'daily', scopes: ['trigger:agents'], spendCapCredits: 50, spendCapInterval: 'daily' },
    });
    expect(daily.status).toBe(201);
    expect(daily.body).toMatchObject({
      spendCapCredits: 50,
      spentCredits: 0,
      remainingCredits: 50,
      spendCapInterval: 'daily',
      spendCapRefillDay: null,
    });
    expect(daily.body.nextRefillAt).toMatch(/T00:00:00\.000Z$/);

    const monthly = await api.post('/v1/api_keys', {
      token: owner.token,
      body: { name: 'monthly', spendCapCredits: 10, spendCapInterval: 'monthly', spendCapRefillDay: 31 },
    });
    expect(monthly.body).toMatchObject({ spendCapInterval: 'monthly', spendCapRefillDay: 31, remainingCredits: 10 });
    const next = new Date(monthly.body.nextRefillAt);
    // Day 31 is the last day of a shorter month.
    expect(new Date(next.getTime() + 86_400_000).getUTCDate()).toBe(1);

    const listed = await api.get('/v1/api_keys', { token: owner.token });
    expect(listed.body.data.find((k: any) => k.id === monthly.body.id)).toMatchObject({
      spendCapInterval: 'monthly',
      remainingCredits: 10,
      nextRefillAt: monthly.body.nextRefillAt,
    });

    // A plain cap keeps its meaning: no refill, nothing new to set.
    const plain = await api.post('/v1/api_keys', { token: owner.token, body: { name: 'plain', spendCapCredits: 7 } });
    expect(plain.body).toMatchObject({ spendCapInterval: null, nextRefillAt: null, remainingCredits: 7 });

    for (const body of [
      { name: 'x', spendCapInterval: 'daily' },
      { name: 'x', spendCapCredits: 5, spendCapInterval: 'weekly' },
      { name: 'x', spendCapCredits: 5, spendCapInterval: 'daily', spendCapRefillDay: 3 },
      { name: 'x', spendCapCredits: 5, spendCapInterval: 'monthly', spendCapRefillDay: 32 },
      { name: 'x', spendCapCredits: 5, spendCapInterval: 'monthly', spendCapRefillDay: 0 },
    ]) {
      const refused = await api.post('/v1/api_keys', { token: owner.token, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('validation_error');
    }

    const edited = await api.patch(`/v1/api_keys/${plain.body.id}`, {
      token: owner.token,
      body: { spendCapInterval: 'monthly', spendCapRefillDay: 15 },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ spendCapInterval: 'monthly', spendCapRefillDay: 15, spendCapCredits: 7 });
    expect(new Date(edited.body.nextRefillAt).getUTCDate()).toBe(15);
    const uncapped = await api.patch(`/v1/api_keys/${plain.body.id}`, {
      token: owner.token,
      body: { spendCapCredits: null },
    });
    expect(uncapped.body).toMatchObject({ spendCapCredits: null, spendCapInterval: null, remainingCredits: null });
    const badDay = await api.patch(`/v1/api_keys/${daily.body.id}`, {
      token: owner.token,
      body: { spendCapRefillDay: 2 },
    });
    expect(badDay.status).toBe(400);
  });

  it('20 concurrent chats across a refill never spend past the cap of either period; one event per crossing per period', async () => {
    const owner = await setupAccount(t, {
      agent: {},
      agentKey: { scopes: ['agent:trigger'], spendCapCredits: 15, spendCapInterval: 'daily' },
    });
    const { agentId, agentKey } = owner;

    // Within one period: 5 of 15 spent, room for two chats of 5.
    const first = await raceChats(agentId, agentKey.key, agentKey.id, 20, { spent_credits: 5 });
    expect(first.filter((r) => r === 'ok')).toHaveLength(2);
    expect(first.filter((r) => r === 'spend_cap_exceeded')).toHaveLength(18);
    let key = (await api.get(`/v1/api_keys/${agentKey.id}`, { token: owner.token })).body;
    expect(key).toMatchObject({ spentCredits: 15, remainingCredits: 0 });
    expect(await capEvents(owner.accountId)).toEqual([80, 100]);

    // The period ends while the next chats queue: the boundary moves to before the key's stored period start.
    const row = await t.deps.db('api_keys').where({ id: agentKey.id }).first();
    const ended = new Date(row.spend_period_start.getTime() - 86_400_000);
    const second = await raceChats(agentId, agentKey.key, agentKey.id, 20, { spend_period_start: ended });
    expect(second.filter((r) => r === 'ok')).toHaveLength(3);
    expect(second.filter((r) => r === 'spend_cap_exceeded')).toHaveLength(17);
    key = (await api.get(`/v1/api_keys/${agentKey.id}`, { token: owner.token })).body;
    expect(key).toMatchObject({ spentCredits: 15, remainingCredits: 0 });
    const after = await t.deps.db('api_keys').where({ id: agentKey.id }).first();
    expect(after.spend_period_start.getTime()).toBe(row.spend_period_start.getTime());
    expect(await capEvents(owner.accountId)).toEqual([80, 80, 100, 100]);
    // Each charge paid: 5 chats in all, 25 credits from the balance.
    expect((await t.deps.db('credit_ledger').where({ key_id: agentKey.id })).length).toBe(5);
    expect((await t.deps.db('accounts').where({ id: owner.accountId }).first()).credits_balance).toBe(975);
  });

  it('a period that has ended shows the whole cap again before the next charge', async () => {
    const owner = await setupAccount(t, { accountKey: { spendCapCredits: 9, spendCapInterval: 'daily' } });
    const row = await t.deps.db('api_keys').where({ id: owner.accountKey.id }).first();
    await t.deps
      .db('api_keys')
      .where({ id: owner.accountKey.id })
      .update({ spent_credits: 9, spend_period_start: new Date(row.spend_period_start.getTime() - 86_400_000) });
    const key = (await api.get(`/v1/api_keys/${owner.accountKey.id}`, { token: owner.token })).body;
    expect(key).toMatchObject({ spentCredits: 0, remainingCredits: 9 });
  });

  it("the periods reads show are the database's: month ends, leap days, refill days past a month's end", async () => {
    const moments = [
      '2026-03-01T05:00:00.000Z',
      '2026-02-28T23:59:59.999Z',
      '2028-02-29T12:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
      '2026-12-31T23:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
      '2026-03-15T00:00:00.000Z',
      '2026-03-14T23:59:59.999Z',
    ];
    const rules: Array<[SpendInterval, number | null]> = [
      ['daily', null],
      ['monthly', 1],
      ['monthly', 15],
      ['monthly', 29],
      ['monthly', 31],
    ];
    for (const at of moments) {
      for (const [interval, day] of rules) {
        const { rows } = await t.deps.db.raw(`SELECT spend_period_start(?, ?::smallint, ?::timestamptz) AS start`, [
          interval,
          day,
          at,
        ]);
        expect(periodStart(interval, day, new Date(at)).toISOString(), `${interval} ${day} ${at}`).toBe(
          rows[0].start.toISOString(),
        );
      }
    }
  });
});
