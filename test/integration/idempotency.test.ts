import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCredential } from '../../src/http/credentials.js';
import { createApp } from '../../src/http/app.js';
import { createClaimHolder } from '../../src/idempotency/claim-holder.js';
import { claimIdempotencyKey, sweepIdempotencyKeys } from '../../src/idempotency/idempotency.service.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent } from '../helpers/keys.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Idempotency-Key on the creating and spending POSTs, over real HTTP.

let t: TestContext;
let api: Client;
let r: Receiver;

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  api = client(t.url);
  r = await startReceiver();
});
afterAll(async () => {
  await r?.close();
  await t?.close();
});

const withKey = (key: string) => ({ 'idempotency-key': key });
const replayed = (res: { headers: Headers }) => res.headers.get('idempotent-replayed') === 'true';
const countOf = async (table: string, where: Record<string, unknown>) =>
  Number((await t.deps.db(table).where(where).count({ n: '*' }))[0]!.n);

describe('Idempotency-Key', () => {
  it('20 concurrent identical chats with one key: one run, one charge; the rest replay it or are told it is in flight', async () => {
    const owner = await signupAccount(api);
    const agentId = await createAgent(t, owner.accountId, 'Chatty', { autoReply: 'hi' });
    const key = await createAccountKey(api, owner.token, { scopes: ['trigger:agents'], spendCapCredits: 1000 });
    const send = () =>
      api.post(`/v1/agents/${agentId}/chat`, {
        token: key.key,
        body: { message: 'hello' },
        headers: withKey('chat-0001'),
      });

    const results = await Promise.all(Array.from({ length: 20 }, send));
    const originals = results.filter((x) => x.status === 202 && !replayed(x));
    expect(originals).toHaveLength(1);
    for (const x of results.filter((y) => y !== originals[0])) {
      if (x.status === 202) expect(x.body).toEqual(originals[0]!.body);
      else
        expect({ status: x.status, code: x.body.error.code, retryAfter: x.headers.get('retry-after') }).toEqual({
          status: 409,
          code: 'idempotency_key_in_use',
          retryAfter: '1',
        });
    }
    expect(await countOf('runs', { agent_id: agentId })).toBe(1);
    expect(await countOf('credit_ledger', { key_id: key.id })).toBe(1);
    expect((await api.get('/v1/billing', { token: owner.token })).body.creditsBalance).toBe(995);

    // Later, the same request is replayed with the first response, and does nothing.
    const again = await send();
    expect(again.status).toBe(202);
    expect(replayed(again)).toBe(true);
    expect(again.body).toEqual(originals[0]!.body);
    expect(await countOf('credit_ledger', { key_id: key.id })).toBe(1);
  });

  it('a request that runs long holds its key until it answers: a retry meanwhile is told it is in flight, one run', async () => {
    const owner = await signupAccount(api);
    const agentId = await createAgent(t, owner.accountId, 'Slow', { autoReply: 'hi' });
    const key = await createAccountKey(api, owner.token, { scopes: ['trigger:agents'], spendCapCredits: 1000 });
    const send = () =>
      api.post(`/v1/agents/${agentId}/chat`, { token: key.key, body: { message: 'slow' }, headers: withKey('slow-1') });
    const keyHash = createHash('sha256').update('slow-1').digest('hex');
    // The first request's run waits on the runs table, locked by the test, for as long as the test needs: past
    // any lease a claim could have, then a second request with the same key arrives while the first still runs.
    const blocker = await t.deps.db.transaction();
    let first: ReturnType<typeof send> | undefined;
    let second: ReturnType<typeof send> | undefined;
    try {
      await blocker.raw('LOCK TABLE runs IN SHARE MODE');
      first = send();
      const waitingOnLocks = async () =>
        Number(
          (
            await t.deps.db.raw(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          ).rows[0].n,
        );
      await waitUntil(async () => (await waitingOnLocks()) === 1, 30_000, 'the first run waiting on the runs table');
      await waitUntil(
        async () =>
          (
            await t.deps.db.raw(
              `SELECT created_at < now() - interval '3 seconds' AS old FROM idempotency_keys WHERE key_hash = ?`,
              [keyHash],
            )
          ).rows[0]?.old === true,
        30_000,
        'the claim held for 3 s',
      );
      second = send();
      let answered = false;
      void second.then(() => (answered = true));
      // Either the second is answered at once, or it runs too and waits behind the first.
      await waitUntil(async () => answered || (await waitingOnLocks()) === 2, 30_000, 'the second request');
    } finally {
      await blocker.commit();
    }
    const [a, b] = await Promise.all([first!, second!]);
    expect(a.status).toBe(202);
    expect({ status: b.status, code: b.body.error?.code }).toEqual({ status: 409, code: 'idempotency_key_in_use' });
    expect(await countOf('runs', { agent_id: agentId })).toBe(1);
    expect(await countOf('credit_ledger', { key_id: key.id })).toBe(1);
    const again = await send();
    expect({ status: again.status, replayed: replayed(again), body: again.body }).toEqual({
      status: 202,
      replayed: true,
      body: a.body,
    });
  });

  it('refuses the same key for another body, path or credential (422); another account has its own keys', async () => {
    const owner = await signupAccount(api);
    const other = await signupAccount(api);
    const first = await api.post('/v1/agents', { token: owner.token, body: { name: 'One' }, headers: withKey('k-1') });
    expect(first.status).toBe(201);
    // The same body in another key order and spacing is the same request.
    const same = await api.post('/v1/agents', {
      token: owner.token,
      raw: '{ "name" :"One" }',
      headers: { ...withKey('k-1'), 'content-type': 'application/json' },
    });
    expect(same.status).toBe(201);
    expect(replayed(same)).toBe(true);
    expect(same.body.id).toBe(first.body.id);

    const reused = [
      await api.post('/v1/agents', { token: owner.token, body: { name: 'Two' }, headers: withKey('k-1') }),
      await api.post('/v1/contacts', { token: owner.token, body: { name: 'One' }, headers: withKey('k-1') }),
      await api.post('/v1/agents', {
        token: (await createAccountKey(api, owner.token, { scopes: ['write:agents'] })).key,
        body: { name: 'One' },
        headers: withKey('k-1'),
      }),
    ];
    for (const x of reused)
      expect({ status: x.status, code: x.body.error.code }).toEqual({ status: 422, code: 'idempotency_key_reused' });
    expect(await countOf('agents', { account_id: owner.accountId })).toBe(1);

    const elsewhere = await api.post('/v1/agents', {
      token: other.token,
      body: { name: 'One' },
      headers: withKey('k-1'),
    });
    expect(elsewhere.status).toBe(201);
    expect(replayed(elsewhere)).toBe(false);
  });

  it('stores only the key hash, never a secret: a replayed creation shows its secret as null', async () => {
    const owner = await signupAccount(api);
    const created = await api.post('/v1/api_keys', {
      token: owner.token,
      body: { name: 'ci' },
      headers: withKey('create-key-1'),
    });
    expect(created.body.key).toMatch(/^ca_acct_/);
    const replay = await api.post('/v1/api_keys', {
      token: owner.token,
      body: { name: 'ci' },
      headers: withKey('create-key-1'),
    });
    expect(replay.status).toBe(201);
    expect(replayed(replay)).toBe(true);
    expect(replay.body).toEqual({ ...created.body, key: null });
    expect(await countOf('api_keys', { account_id: owner.accountId })).toBe(1);

    const wh = await api.post('/v1/webhooks', {
      token: owner.token,
      body: { url: r.url, events: ['message.received'] },
      headers: withKey('create-wh-1'),
    });
    const whReplay = await api.post('/v1/webhooks', {
      token: owner.token,
      body: { url: r.url, events: ['message.received'] },
      headers: withKey('create-wh-1'),
    });
    expect(wh.body.secret).toMatch(/^whsec_/);
    expect(whReplay.body).toEqual({ ...wh.body, secret: null });

    const rows = await t.deps.db('idempotency_keys').where({ account_id: owner.accountId });
    expect(rows.map((x) => x.key_hash).sort()).toEqual(
      ['create-key-1', 'create-wh-1'].map((k) => createHash('sha256').update(k).digest('hex')).sort(),
    );
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(created.body.key);
    expect(stored).not.toContain(wh.body.secret);
    expect(stored).not.toContain('create-key-1');
  });

  it('replays a send instead of answering 409, and a failed request gives its key up for a retry', async () => {
    const owner = await signupAccount(api);
    const agentId = await createAgent(t, owner.accountId);
    const inbox = await api.post('/v1/inboxes', {
      token: owner.token,
      body: { agentId, channel: 'email', address: `in-${owner.accountId.toLowerCase()}@example.com` },
    });
    const draft = await api.post('/v1/messages', {
      token: owner.token,
      body: { inboxId: inbox.body.id, to: 'bob@example.com', text: 'hi' },
    });
    await t.deps.db('accounts').where({ id: owner.accountId }).update({ credits_balance: 0 });

    const poor = await api.post(`/v1/messages/${draft.body.id}/send`, {
      token: owner.token,
      headers: withKey('send-1'),
    });
    expect(poor.status).toBe(402);
    await t.deps.db('accounts').where({ id: owner.accountId }).update({ credits_balance: 10 });
    const sent = await api.post(`/v1/messages/${draft.body.id}/send`, {
      token: owner.token,
      headers: withKey('send-1'),
    });
    expect(sent.status).toBe(202);
    expect(replayed(sent)).toBe(false);
    const resent = await api.post(`/v1/messages/${draft.body.id}/send`, {
      token: owner.token,
      headers: withKey('send-1'),
    });
    expect({ status: resent.status, replayed: replayed(resent), body: resent.body }).toEqual({
      status: 202,
      replayed: true,
      body: sent.body,
    });
    expect((await api.post(`/v1/messages/${draft.body.id}/send`, { token: owner.token })).status).toBe(409);
    expect((await api.get('/v1/billing', { token: owner.token })).body.creditsBalance).toBe(9);

    // A body refused by validation is not remembered either.
    expect(
      (await api.post('/v1/agents', { token: owner.token, body: { name: '' }, headers: withKey('agent-x') })).status,
    ).toBe(400);
    expect(
      (await api.post('/v1/agents', { token: owner.token, body: { name: 'Fine' }, headers: withKey('agent-x') }))
        .status,
    ).toBe(201);
  });

  it('refuses a key over 255 characters, empty, or not printable ASCII with 400 naming the header, doing nothing', async () => {
    const owner = await signupAccount(api);
    for (const bad of ['x'.repeat(256), '', 'café', 'tab\there']) {
      const res = await api.post('/v1/agents', { token: owner.token, body: { name: 'Nope' }, headers: withKey(bad) });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.fields.map((f: any) => f.field)).toEqual(['Idempotency-Key']);
    }
    expect(await countOf('agents', { account_id: owner.accountId })).toBe(0);
    expect(await countOf('idempotency_keys', { account_id: owner.accountId })).toBe(0);
    expect(
      (await api.post('/v1/agents', { token: owner.token, body: { name: 'Ok' }, headers: withKey('x'.repeat(255)) }))
        .status,
    ).toBe(201);
    // A GET ignores the header.
    expect((await api.get('/v1/agents', { token: owner.token, headers: withKey('') })).status).toBe(200);
  });

  it('lets a retry take over a claim its process died with at once; expired records are swept and reusable', async () => {
    const owner = await signupAccount(api);
    const principal = (await resolveCredential(t.deps, owner.token, { ip: '127.0.0.1' })).principal;
    // A request that claimed its key in another process, which then died before it finished.
    const dying = createClaimHolder(t.deps.config.database.url, t.deps.logger);
    await claimIdempotencyKey(
      { ...t.deps, claimHolder: dying },
      { principal, key: 'orphan', method: 'POST', url: '/v1/agents', body: { name: 'Orphan' } },
    );
    const retry = () =>
      api.post('/v1/agents', { token: owner.token, body: { name: 'Orphan' }, headers: withKey('orphan') });
    expect((await retry()).status).toBe(409);
    await dying.close();
    const taken = await retry();
    expect(taken.status).toBe(201);
    expect(replayed(taken)).toBe(false);

    await t.deps
      .db('idempotency_keys')
      .where({ account_id: owner.accountId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    // Past its 24 hours a key is free again, for any request, even before the sweep.
    const fresh = await api.post('/v1/agents', {
      token: owner.token,
      body: { name: 'Other' },
      headers: withKey('orphan'),
    });
    expect({ status: fresh.status, replayed: replayed(fresh) }).toEqual({ status: 201, replayed: false });
    await t.deps
      .db('idempotency_keys')
      .where({ account_id: owner.accountId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(await sweepIdempotencyKeys(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await countOf('idempotency_keys', { account_id: owner.accountId })).toBe(0);
  });

  it('is declared on every POST that creates or spends, and on no other', () => {
    const { api: router } = createApp(t.deps);
    expect([...router.idempotentRoutes].sort()).toEqual([
      'POST /v1/agents',
      'POST /v1/agents/:agentId/api-keys',
      'POST /v1/agents/:agentId/api_keys',
      'POST /v1/agents/:agentId/chat',
      'POST /v1/api_keys',
      'POST /v1/billing/credits',
      'POST /v1/contacts',
      'POST /v1/domains',
      'POST /v1/inboxes',
      'POST /v1/messages',
      'POST /v1/messages/:messageId/send',
      'POST /v1/portal-links',
      'POST /v1/team/members',
      'POST /v1/webhooks',
      'POST /v1/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
      'POST /v1/webhooks/:webhookId/test',
      'POST /v1/webhooks/test-events',
    ]);
  });
});
