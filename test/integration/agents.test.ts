import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;

const eventsOf = (accountId: string, type?: string) =>
  t.deps
    .db('events')
    .where({ account_id: accountId })
    .modify((q) => {
      if (type) q.andWhere({ type });
    })
    .orderBy('created_at');

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
});
afterAll(() => t.close());

describe('agents', () => {
  it('creates, lists and reads an agent', async () => {
    const created = await api.post('/v1/agents', {
      token: owner.token,
      body: { name: 'Support', config: { autoReply: 'Hello!' } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Support', status: 'active', config: { autoReply: 'Hello!' } });
    expect(created.body.id).toMatch(/^agt_/);
    const list = await api.get('/v1/agents', { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(created.body.id);
    expect(list.body).toMatchObject({ hasMore: false, nextCursor: null });
    const one = await api.get(`/v1/agents/${created.body.id}`, { token: owner.token });
    expect(one.body).toEqual(created.body);
  });

  it('merge-patches config (RFC 7396), changes name and status, and emits agent.updated once per change', async () => {
    const { body: agent } = await api.post('/v1/agents', {
      token: owner.token,
      body: { name: 'A', config: { autoReply: 'x', tone: { formal: true, emoji: false } } },
    });
    const before = (await eventsOf(owner.accountId, 'agent.updated')).length;
    const res = await api.patch(`/v1/agents/${agent.id}`, {
      token: owner.token,
      body: { name: 'B', status: 'paused', config: { tone: { emoji: null, lang: 'en' }, autoReply: null } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'B', status: 'paused', config: { tone: { formal: true, lang: 'en' } } });
    expect(res.body.config).not.toHaveProperty('autoReply');
    const events = await eventsOf(owner.accountId, 'agent.updated');
    expect(events.length).toBe(before + 1);
    expect(events.at(-1)!.payload).toMatchObject({ id: agent.id, name: 'B', status: 'paused' });

    // The same values again change nothing and emit nothing.
    const same = await api.patch(`/v1/agents/${agent.id}`, {
      token: owner.token,
      body: { name: 'B', config: { tone: { lang: 'en' } } },
    });
    expect(same.status).toBe(200);
    expect((await eventsOf(owner.accountId, 'agent.updated')).length).toBe(before + 1);
  });

  it('rejects bad bodies with 400 and writes no event', async () => {
    const { body: agent } = await api.post('/v1/agents', { token: owner.token, body: { name: 'C' } });
    const before = (await eventsOf(owner.accountId)).length;
    for (const body of [
      { config: 'text' },
      { config: [1, 2] },
      { config: null },
      { status: 'sleeping' },
      { name: '' },
      {},
      { name: 'x', extra: 1 },
      { config: { runtime: { type: 'ftp' } } },
      { config: { runtime: { type: 'http', url: 'file:///etc/passwd' } } },
    ]) {
      const res = await api.patch(`/v1/agents/${agent.id}`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
    expect((await api.post('/v1/agents', { token: owner.token, body: { config: {} } })).status).toBe(400);
    expect((await api.post('/v1/agents', { token: owner.token, body: { name: 'x', config: 5 } })).status).toBe(400);
    expect((await eventsOf(owner.accountId)).length).toBe(before);
  });

  it("answers 404 for unknown ids and for another account's agent", async () => {
    const { body: agent } = await api.post('/v1/agents', { token: owner.token, body: { name: 'Mine' } });
    const other = await signupAccount(api, 'Other');
    expect((await api.get('/v1/agents/agt_doesnotexist', { token: owner.token })).status).toBe(404);
    const foreign = await api.get(`/v1/agents/${agent.id}`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect((await api.patch(`/v1/agents/${agent.id}`, { token: other.token, body: { name: 'stolen' } })).status).toBe(
      404,
    );
    expect((await api.get('/v1/agents', { token: other.token })).body.data).toEqual([]);
    expect((await api.get(`/v1/agents/${agent.id}`, { token: owner.token })).body.name).toBe('Mine');
  });
});
