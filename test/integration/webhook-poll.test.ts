import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleDeliveries } from '../../src/delivery/schedule.js';
import { transactWithEvents } from '../../src/events/emit.js';
import { ensureDayPartitions, maintainPartitions } from '../../src/maintenance/partitions.service.js';
import { dayStart, partitionName } from '../../src/maintenance/partitions.repository.js';
import { DAY_MS } from '../../src/maintenance/retention.js';
import { createPollDestination, type PolledDelivery } from '../helpers/destinations/poll.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgentKey } from '../helpers/keys.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { waitFor } from '../helpers/wait.js';
import { verifySwitchboardSignature } from '../helpers/webhook-verify.js';

// Polling endpoints (docs/webhook-polling.md#polling-endpoints): a poll subscription's consumer pulls its deliveries
// with its own credential, pages with cursors, commits and seeks back; a delivery counts as delivered when a poll
// first returns it. Real Postgres and Redis; no workers run, so nothing here could be sent by a job: the polls alone
// deliver. WEBHOOK_RETENTION_DAYS=3, for the consumer that never polls.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_RETENTION_DAYS: '3', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  api = client(t.url);
  owner = await signupAccount(api);
});
afterAll(() => t?.close());

interface PollSubscription {
  id: string;
  secret: string;
  pollCredential: string;
  url: string;
}

async function createPollSubscription(token = owner.token): Promise<PollSubscription> {
  const res = await api.post('/v1/webhooks', { token, body: { kind: 'poll', events: ['message.received'] } });
  expect(res.status).toBe(201);
  return res.body;
}

/** Emits one message.received per id, each in its own transaction, in this order. */
async function emit(accountId: string, ids: string[]): Promise<void> {
  for (const id of ids)
    await transactWithEvents(t.deps, accountId, (_trx, e) => e({ type: 'message.received', payload: { id } }));
}

const poll = (id: string, token: string, query = '') => api.get(`/v1/webhooks/${id}/poll${query}`, { token });
const payloadIds = (data: PolledDelivery[]) => data.map((d) => JSON.parse(d.body).payload.id as string);
const verifies = (d: PolledDelivery, secret: string) =>
  verifySwitchboardSignature({ headers: d.headers, raw: d.body, body: null, at: 0, path: '' }, secret);

/** Jobs in every delivery shard, whatever their state. */
async function deliveryJobCount(): Promise<number> {
  let n = 0;
  for (const q of t.deps.queues.deliveryShards) {
    const counts = await q.getJobCounts();
    n += Object.values(counts).reduce((a, b) => a + b, 0);
  }
  return n;
}

describe('creating a poll subscription', () => {
  it('answers its own credential once, with no URL to send to, and never again', async () => {
    const sub = await createPollSubscription();
    expect(sub).toMatchObject({ kind: 'poll', url: `/v1/webhooks/${sub.id}/poll`, status: 'active' });
    expect(sub.pollCredential).toMatch(/^whpoll_[0-9A-Za-z]{38}$/);
    expect(sub.secret).toMatch(/^whsec_/);
    const got = await api.get(`/v1/webhooks/${sub.id}`, { token: owner.token });
    expect(got.body.kind).toBe('poll');
    expect(JSON.stringify(got.body)).not.toContain(sub.pollCredential);
    expect(got.body).not.toHaveProperty('pollCredential');
    const listed = await api.get('/v1/webhooks', { token: owner.token });
    expect(JSON.stringify(listed.body)).not.toContain('whpoll_');
    // Stored as its hash only.
    const row = await t.deps.db('webhooks').where({ id: sub.id }).first();
    expect(JSON.stringify(row)).not.toContain(sub.pollCredential);
    expect(row.poll_credential_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a URL, a throttle or an ordering key for a poll subscription, and no URL for an http one', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'poll', url: 'https://example.com/hook' }, 'url'],
      [{ kind: 'poll', rateLimitPerSecond: 5 }, 'rateLimitPerSecond'],
      [{ kind: 'poll', ordering: 'key' }, 'ordering'],
      [{}, 'url'],
      [{ kind: 'carrier-pigeon' }, 'kind'],
    ];
    const before = await t.deps.db('webhooks').count({ n: '*' }).first();
    for (const [fields, field] of cases) {
      const res = await api.post('/v1/webhooks', {
        token: owner.token,
        body: { events: ['message.received'], ...fields },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect(await t.deps.db('webhooks').count({ n: '*' }).first()).toEqual(before);
    const sub = await createPollSubscription();
    const patch = await api.patch(`/v1/webhooks/${sub.id}`, {
      token: owner.token,
      body: { url: 'https://example.com/hook' },
    });
    expect(patch.status).toBe(400);
    expect(patch.body.error.details.fields[0].field).toBe('url');
  });
});

describe('polling', () => {
  it('returns signed envelopes in commit order, pages with cursors, records each delivered once, and spends no job', async () => {
    const acct = await signupAccount(api);
    const sub = await createPollSubscription(acct.token);
    const ids = ['a1', 'a2', 'a3', 'a4', 'a5'];
    await emit(acct.accountId, ids);
    // Written waiting for their consumer: no due time, no job.
    const rows = await t.deps.db('webhook_deliveries').where({ webhook_id: sub.id });
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.status === 'pending' && r.next_attempt_at === null)).toBe(true);
    expect(await deliveryJobCount()).toBe(0);

    const seen: PolledDelivery[] = [];
    const cursors: string[] = [];
    let cursor: string | undefined;
    const more: boolean[] = [];
    for (let page = 0; page < 3; page++) {
      const res = await poll(sub.id, sub.pollCredential, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data);
      more.push(res.body.hasMore);
      cursor = res.body.nextCursor;
      cursors.push(cursor!);
    }
    expect(payloadIds(seen)).toEqual(ids);
    expect(more).toEqual([true, true, false]);
    for (const d of seen) {
      expect(verifies(d, sub.secret)).toBe(true);
      expect(verifies(d, 'whsec_' + Buffer.alloc(32).toString('base64'))).toBe(false);
      expect(d.headers['x-switchboard-delivery']).toBe(d.id);
      expect(d.headers['webhook-id']).toBe(d.id);
      expect(JSON.parse(d.body)).toMatchObject({ id: d.id, event: 'message.received', apiVersion: '2026-11-01' });
    }

    // Polled means delivered: succeeded, with one succeeded attempt each, and counted in the endpoint's health.
    const deliveries = await api.get(`/v1/webhooks/${sub.id}/deliveries?limit=100`, { token: acct.token });
    expect(deliveries.body.data.map((d: { status: string }) => d.status)).toEqual(Array(5).fill('succeeded'));
    const attempts = await api.get(`/v1/webhooks/${sub.id}/attempts?limit=100`, { token: acct.token });
    expect(attempts.body.data).toHaveLength(5);
    expect(new Set(attempts.body.data.map((a: { deliveryId: string }) => a.deliveryId))).toEqual(
      new Set(seen.map((d) => d.id)),
    );
    expect(attempts.body.data.every((a: { status: string }) => a.status === 'succeeded')).toBe(true);
    await waitFor(
      async () => (await api.get(`/v1/webhooks/${sub.id}/stats?window=1h`, { token: acct.token })).body,
      (s) => s.succeeded === 5 && s.attempts === 5,
      { what: 'five polled deliveries in the stats' },
    );

    // At the end: nothing more, and the same cursor back to poll with.
    const end = await poll(sub.id, sub.pollCredential, `?cursor=${cursor}`);
    expect(end.body).toMatchObject({ data: [], hasMore: false, nextCursor: cursor });

    // Seeking back re-reads the same entries, signed anew, and records nothing more.
    const again = await poll(sub.id, sub.pollCredential, `?limit=2&cursor=${cursors[0]}`);
    expect(payloadIds(again.body.data)).toEqual(['a3', 'a4']);
    expect(again.body.data.every((d: PolledDelivery) => verifies(d, sub.secret))).toBe(true);
    // No cursor and none committed: from the start.
    expect(payloadIds((await poll(sub.id, sub.pollCredential, '?limit=100')).body.data)).toEqual(ids);
    expect((await api.get(`/v1/webhooks/${sub.id}/attempts?limit=100`, { token: acct.token })).body.data).toHaveLength(
      5,
    );
    expect(await deliveryJobCount()).toBe(0);
  });

  it('continues after a committed cursor, and a redeliver re-offers the delivery at the end of the log', async () => {
    const acct = await signupAccount(api);
    const sub = await createPollSubscription(acct.token);
    await emit(acct.accountId, ['b1', 'b2', 'b3']);
    const first = await poll(sub.id, sub.pollCredential, '?limit=1');
    expect(payloadIds(first.body.data)).toEqual(['b1']);
    const commit = await api.post(`/v1/webhooks/${sub.id}/poll/commit`, {
      token: sub.pollCredential,
      body: { cursor: first.body.nextCursor },
    });
    expect(commit.status).toBe(200);
    expect(commit.body).toEqual({ webhookId: sub.id, cursor: first.body.nextCursor });
    const rest = await poll(sub.id, sub.pollCredential);
    expect(payloadIds(rest.body.data)).toEqual(['b2', 'b3']);

    const b1 = first.body.data[0] as PolledDelivery;
    const redeliver = await api.post(`/v1/webhooks/${sub.id}/deliveries/${b1.id}/redeliver`, { token: acct.token });
    expect(redeliver.status).toBe(202);
    expect(await deliveryJobCount()).toBe(0);
    const reoffered = await poll(sub.id, sub.pollCredential, `?cursor=${rest.body.nextCursor}`);
    expect(reoffered.body.data.map((d: PolledDelivery) => d.id)).toEqual([b1.id]);
    expect(verifies(reoffered.body.data[0], sub.secret)).toBe(true);
    const attempts = await api.get(`/v1/webhooks/${sub.id}/attempts?deliveryId=${b1.id}`, { token: acct.token });
    expect(attempts.body.data.map((a: { attemptNumber: number }) => a.attemptNumber).sort()).toEqual([1, 2]);
    // It left its old place: reading from the start shows it once, at the end.
    expect(payloadIds((await poll(sub.id, sub.pollCredential, '?cursor=' + encodeStart(sub.id))).body.data)).toEqual([
      'b2',
      'b3',
      'b1',
    ]);
  });

  it('returns every delivery once while events commit during the polls', async () => {
    const acct = await signupAccount(api);
    const sub = await createPollSubscription(acct.token);
    const ids = Array.from({ length: 24 }, (_x, i) => `c${i}`);
    const consumer = createPollDestination(t.url);
    consumer.attach(sub);
    const emitting = emit(acct.accountId, ids);
    const got = await consumer.waitForDeliveries(ids.length, 20_000);
    await emitting;
    await consumer.close();
    expect(payloadIds(got)).toEqual(ids);
    expect(new Set(got.map((d) => d.id)).size).toBe(ids.length);
    expect(got.every((d) => verifies(d, sub.secret))).toBe(true);
  });

  it('records each delivery once when two consumers reach the end of the log together', async () => {
    const acct = await signupAccount(api);
    const sub = await createPollSubscription(acct.token);
    const ids = Array.from({ length: 12 }, (_x, i) => `d${i}`);
    await emit(acct.accountId, ids);
    const pages = await Promise.all(Array.from({ length: 4 }, () => poll(sub.id, sub.pollCredential, '?limit=5')));
    // Each read the same start of the log: the first five, in order.
    for (const page of pages) expect(payloadIds(page.body.data)).toEqual(ids.slice(0, 5));
    const rest = await poll(sub.id, sub.pollCredential, `?limit=100&cursor=${pages[0]!.body.nextCursor}`);
    expect(payloadIds(rest.body.data)).toEqual(ids.slice(5));
    const attempts = await api.get(`/v1/webhooks/${sub.id}/attempts?limit=100`, { token: acct.token });
    expect(attempts.body.data).toHaveLength(ids.length);
    expect(new Set(attempts.body.data.map((a: { deliveryId: string }) => a.deliveryId)).size).toBe(ids.length);
  });

  it('answers a replayed create (same Idempotency-Key) without the credential, which is never stored', async () => {
    const body = { kind: 'poll', events: ['message.received'] };
    const headers = { 'idempotency-key': `poll-${Date.now()}` };
    const first = await api.post('/v1/webhooks', { token: owner.token, body, headers });
    const replay = await api.post('/v1/webhooks', { token: owner.token, body, headers });
    expect(first.status).toBe(201);
    expect(first.body.pollCredential).toMatch(/^whpoll_/);
    expect(replay.body).toMatchObject({ id: first.body.id, pollCredential: null, secret: null });
    expect((await poll(first.body.id, first.body.pollCredential)).status).toBe(200);
  });

  it('lets an account credential with read:webhooks poll, and answers 409 for a subscription that is not polled', async () => {
    const sub = await createPollSubscription();
    const reader = await createAccountKey(api, owner.token, { scopes: ['read:webhooks'] });
    expect((await poll(sub.id, reader.key)).status).toBe(200);
    expect((await poll(sub.id, owner.token)).status).toBe(200);
    const http = await api.post('/v1/webhooks', {
      token: owner.token,
      body: { url: 'https://example.com/hook', events: ['message.received'] },
    });
    const notPolled = await poll(http.body.id, reader.key);
    expect(notPolled.status).toBe(409);
    expect(notPolled.body.error.code).toBe('conflict');
  });
});

describe('the core', () => {
  it('parks a poll delivery that some path made due: its job sends nothing, records nothing, and the poll still gets it', async () => {
    await t.startWorkers();
    const acct = await signupAccount(api);
    const sub = await createPollSubscription(acct.token);
    await emit(acct.accountId, ['due']);
    const row = await t.deps.db('webhook_deliveries').where({ webhook_id: sub.id }).first();
    // As if a path had made it due and added its job.
    await t.deps.db('webhook_deliveries').where({ id: row.id }).update({ next_attempt_at: t.deps.db.fn.now() });
    await scheduleDeliveries(t.deps, [{ id: row.id, job_seq: 1, webhook_id: sub.id, event: 'message.received' }]);
    const parked = await waitFor(
      () => t.deps.db('webhook_deliveries').where({ id: row.id }).first(),
      (r) => r.job_seq === 2,
      { what: 'the job to park the delivery' },
    );
    expect(parked).toMatchObject({ status: 'pending', next_attempt_at: null, attempts: 0 });
    expect(await t.deps.db('webhook_attempts').where({ delivery_id: row.id })).toHaveLength(0);
    const res = await poll(sub.id, sub.pollCredential);
    expect(res.body.data.map((d: PolledDelivery) => d.id)).toEqual([row.id]);
  });

  it('answers 409 to polls of a disabled subscription and offers what waited once it is enabled', async () => {
    const acct = await signupAccount(api);
    const sub = await createPollSubscription(acct.token);
    await emit(acct.accountId, ['before']);
    expect((await api.post(`/v1/webhooks/${sub.id}/disable`, { token: acct.token })).status).toBe(200);
    const refused = await poll(sub.id, sub.pollCredential);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    expect((await api.post(`/v1/webhooks/${sub.id}/enable`, { token: acct.token })).status).toBe(200);
    expect(payloadIds((await poll(sub.id, sub.pollCredential)).body.data)).toEqual(['before']);
  });

  it('shows the kind in the dashboard and the portal', async () => {
    const acct = await signupAccount(api);
    const res = await api.post('/v1/webhooks', {
      token: acct.token,
      body: { kind: 'poll', events: ['message.received'], tenant: 'cust-1' },
    });
    const page = await fetch(`${t.url}/dashboard/webhooks/${res.body.id}`, {
      headers: { cookie: `sb_dash=${acct.token}` },
    });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('poll: its consumer polls the URL with its poll credential');
    expect(text).toContain(`/v1/webhooks/${res.body.id}/poll`);
    expect(text).not.toContain(res.body.pollCredential);
    const link = await api.post('/v1/portal-links', { token: acct.token, body: { tenant: 'cust-1' } });
    const portal = await fetch(`${t.url}/portal/${link.body.token}/webhooks/${res.body.id}`);
    expect(portal.status).toBe(200);
    const portalText = await portal.text();
    expect(portalText).toContain('kind: poll');
    expect(portalText).not.toContain('Save URL');
  });
});

/** The cursor of a log's start (position 0), as the service encodes one. */
const encodeStart = (webhookId: string) => Buffer.from(JSON.stringify({ w: webhookId, p: 0 })).toString('base64url');

describe('who may poll', () => {
  it('refuses a missing, unknown, revoked or replaced credential, another subscription’s, and keys without the scope', async () => {
    const sub = await createPollSubscription();
    const other = await createPollSubscription();
    const stranger = await signupAccount(api);
    const strangerKey = await createAccountKey(api, stranger.token, { scopes: ['read:webhooks'] });
    const noScope = await createAccountKey(api, owner.token, {});
    const agentId = (await api.post('/v1/agents', { token: owner.token, body: { name: 'poller' } })).body.id;
    const agentKey = await createAgentKey(api, owner.token, agentId, {});

    const expectError = async (res: { status: number; body: any; headers: Headers }, status: number, code: string) => {
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.requestId).toBeTruthy();
      if (status === 401) expect(res.headers.get('www-authenticate')).toContain('Bearer');
    };
    await expectError(await api.get(`/v1/webhooks/${sub.id}/poll`), 401, 'missing_credential');
    await expectError(await poll(sub.id, 'whpoll_' + 'A'.repeat(38)), 401, 'invalid_credential');
    await expectError(await poll(sub.id, other.pollCredential), 403, 'insufficient_scope');
    // It reaches nothing but its subscription's poll.
    await expectError(
      await api.get(`/v1/webhooks/${sub.id}`, { token: sub.pollCredential }),
      401,
      'invalid_credential',
    );
    await expectError(
      await api.get(`/v1/webhooks/${sub.id}/deliveries`, { token: sub.pollCredential }),
      401,
      'invalid_credential',
    );
    await expectError(await poll(sub.id, noScope.key), 403, 'insufficient_scope');
    await expectError(await poll(sub.id, agentKey.key), 403, 'agent_forbidden');
    await expectError(await poll(sub.id, strangerKey.key), 404, 'not_found');
    await expectError(
      await api.post(`/v1/webhooks/${sub.id}/poll/commit`, {
        token: other.pollCredential,
        body: { cursor: encodeStart(sub.id) },
      }),
      403,
      'insufficient_scope',
    );

    // A new credential replaces the old one at once; a revoked one is refused; account keys still poll.
    const issued = await api.post(`/v1/webhooks/${sub.id}/poll/credential`, { token: owner.token });
    expect(issued.status).toBe(200);
    expect(issued.body.pollCredential).toMatch(/^whpoll_/);
    await expectError(await poll(sub.id, sub.pollCredential), 401, 'invalid_credential');
    expect((await poll(sub.id, issued.body.pollCredential)).status).toBe(200);
    expect((await api.delete(`/v1/webhooks/${sub.id}/poll/credential`, { token: owner.token })).status).toBe(204);
    await expectError(await poll(sub.id, issued.body.pollCredential), 401, 'invalid_credential');
    const reader = await createAccountKey(api, owner.token, { scopes: ['read:webhooks'] });
    expect((await poll(sub.id, reader.key)).status).toBe(200);
    // Issuing and revoking need write:webhooks.
    await expectError(
      await api.post(`/v1/webhooks/${sub.id}/poll/credential`, { token: reader.key }),
      403,
      'insufficient_scope',
    );

    // A deleted subscription's credential dies with it.
    expect((await api.delete(`/v1/webhooks/${other.id}`, { token: owner.token })).status).toBe(204);
    await expectError(await poll(other.id, other.pollCredential), 401, 'invalid_credential');
  });

  it('refuses a bad cursor or limit with a 400 naming it, and commits nothing', async () => {
    const sub = await createPollSubscription();
    const other = await createPollSubscription();
    const field = (res: { body: any }) => res.body.error.details.fields.map((f: { field: string }) => f.field);
    const beyond = Buffer.from(JSON.stringify({ w: sub.id, p: 1 })).toString('base64url');
    for (const cursor of ['nonsense', encodeStart(other.id), beyond, Buffer.from('{"w":1}').toString('base64url')]) {
      const res = await poll(sub.id, sub.pollCredential, `?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
      expect(field(res)).toEqual(['cursor']);
      const commit = await api.post(`/v1/webhooks/${sub.id}/poll/commit`, {
        token: sub.pollCredential,
        body: { cursor },
      });
      expect(commit.status).toBe(400);
      expect(field(commit)).toEqual(['cursor']);
    }
    for (const limit of ['0', '101', 'ten']) {
      const res = await poll(sub.id, sub.pollCredential, `?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(field(res)).toEqual(['limit']);
    }
    expect((await t.deps.db('webhooks').where({ id: sub.id }).first()).poll_cursor).toBeNull();
  });
});

describe('a consumer that never polls', () => {
  it('is bounded by retention: its deliveries past retention are never offered and go with their day, counted', async () => {
    const acct = await signupAccount(api);
    const sub = await createPollSubscription(acct.token);
    const today = dayStart(new Date());
    const old = new Date(today.getTime() - 6 * DAY_MS + 3600_000);
    await ensureDayPartitions(t.deps, old, 1);
    // A delivery written six days ago, as the fan-out writes a poll subscription's: waiting, no due time.
    await t.deps.db('events').insert({
      id: 'evt_pollold',
      account_id: acct.accountId,
      type: 'message.received',
      payload: { id: 'old' },
      created_at: old,
    });
    await t.deps.db.raw(
      `INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, event, created_at, updated_at,
                                       next_attempt_at, ordering_seq)
       VALUES (sb_uuid_v7(?::timestamptz), ?, ?, 'evt_pollold', 'message.received', ?, ?, NULL, nextval('webhook_delivery_order'))`,
      [old, acct.accountId, sub.id, old, old],
    );
    await emit(acct.accountId, ['recent']);

    const res = await poll(sub.id, sub.pollCredential, '?limit=100');
    expect(payloadIds(res.body.data)).toEqual(['recent']);
    expect(res.body.hasMore).toBe(false);

    const result = await maintainPartitions(t.deps);
    const day = partitionName('webhook_deliveries', dayStart(old));
    expect(result.dropped).toContain(day);
    expect(result.keptForPending).not.toContain(day);
    expect(result.droppedUnpolled).toBe(1);
    expect(await t.deps.db('webhook_deliveries').where({ event_id: 'evt_pollold' })).toHaveLength(0);
  });
});
