import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, createAgentKey } from '../helpers/keys.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { waitUntil } from '../helpers/wait.js';

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let other: Awaited<ReturnType<typeof signupAccount>>;

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  other = await signupAccount(api, 'Other');
});
afterAll(() => t.close());

/** Waits until the database's clock is past the millisecond of the newest event. */
async function nextMillisecond(): Promise<void> {
  const newest = async () => {
    const { rows } = await t.deps.db.raw(
      `SELECT clock_timestamp() > coalesce(max(created_at), '-infinity') + interval '1 millisecond' AS past FROM events`,
    );
    return rows[0].past as boolean;
  };
  await waitUntil(newest, 30_000, 'a millisecond after the newest event');
}

describe('GET /v1/feed', () => {
  it('is empty for a new account', async () => {
    const res = await api.get('/v1/feed', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], hasMore: false, nextCursor: null });
  });

  it('lists the events written with the outbox, newest first, with the envelope fields', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      // An event's time is its commit's millisecond, and events of one millisecond have no order between them:
      // each event here gets a millisecond of its own, so that newest first is one order.
      await nextMillisecond();
      await transactWithEvents(t.deps, owner.accountId, async (_trx, emit) => {
        ids.push(
          await emit({
            type: 'message.received',
            inboxId: `inb_${i}`,
            messageId: `msg_${i}`,
            payload: { id: `msg_${i}`, text: `hello ${i}` },
          }),
        );
      });
    }
    await transactWithEvents(t.deps, other.accountId, async (_trx, emit) => {
      await emit({ type: 'contact.created', payload: { id: 'ct_theirs' } });
    });

    const res = await api.get('/v1/feed', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual([...ids].reverse());
    expect(res.body.data[0]).toEqual({
      id: ids[4],
      event: 'message.received',
      inboxId: 'inb_4',
      messageId: 'msg_4',
      payload: { id: 'msg_4', text: 'hello 4' },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(JSON.stringify(res.body)).not.toContain('ct_theirs');

    const theirs = await api.get('/v1/feed', { token: other.token });
    expect(theirs.body.data).toHaveLength(1);
    expect(theirs.body.data[0]).toMatchObject({ event: 'contact.created', inboxId: null, messageId: null });
  });

  it('pages with limit and cursor without gaps or repeats; a bad cursor is 400', async () => {
    const first = await api.get('/v1/feed?limit=2', { token: owner.token });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const seen = [...first.body.data];
    let cursor = first.body.nextCursor;
    while (cursor) {
      const next = await api.get(`/v1/feed?limit=2&cursor=${cursor}`, { token: owner.token });
      seen.push(...next.body.data);
      cursor = next.body.nextCursor;
    }
    expect(seen.map((e) => e.messageId)).toEqual(['msg_4', 'msg_3', 'msg_2', 'msg_1', 'msg_0']);

    const bad = await api.get('/v1/feed?cursor=nonsense', { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_error');
    expect((await api.get('/v1/feed?limit=500', { token: owner.token })).status).toBe(400);
  });

  it('is read:account: members and default keys read it; narrower keys and per-agent keys get 403', async () => {
    const email = `member-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await api.post('/v1/team/members', {
      token: owner.token,
      body: { email, password: 'member password 1', role: 'member' },
    });
    const member = (await api.post('/v1/auth/login', { body: { email, password: 'member password 1' } })).body.session
      .token;
    expect((await api.get('/v1/feed', { token: member })).body.data).toHaveLength(5);
    expect((await api.get('/v1/feed', { token: (await createAccountKey(api, owner.token)).key })).status).toBe(200);

    const narrow = await createAccountKey(api, owner.token, { scopes: ['read:messages'] });
    const denied = await api.get('/v1/feed', { token: narrow.key });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('insufficient_scope');

    const agentKey = await createAgentKey(api, owner.token, await createAgent(t, owner.accountId));
    const forbidden = await api.get('/v1/feed', { token: agentKey.key });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('agent_forbidden');
  });
});
