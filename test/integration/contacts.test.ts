import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey } from '../helpers/keys.js';

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;

const events = (type: string) => t.deps.db('events').where({ account_id: owner.accountId, type }).orderBy('created_at');

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
});
afterAll(() => t.close());

describe('contacts', () => {
  it('creates, reads, lists and patches a contact with contact.created / contact.updated', async () => {
    const agentId = (await api.post('/v1/agents', { token: owner.token, body: { name: 'A' } })).body.id;
    const created = await api.post('/v1/contacts', {
      token: owner.token,
      body: { name: 'Ada', email: 'Ada@Example.com', agentId, metadata: { tier: 'gold' } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Ada',
      email: 'ada@example.com',
      phone: null,
      agentId,
      metadata: { tier: 'gold' },
    });
    expect(created.body.id).toMatch(/^ct_/);
    expect((await api.get(`/v1/contacts/${created.body.id}`, { token: owner.token })).body).toEqual(created.body);
    expect(
      (await api.get('/v1/contacts', { token: owner.token })).body.data.map((c: { id: string }) => c.id),
    ).toContain(created.body.id);
    expect(
      (await api.get(`/v1/agents/${agentId}/contacts`, { token: owner.token })).body.data.map(
        (c: { id: string }) => c.id,
      ),
    ).toEqual([created.body.id]);

    const patched = await api.patch(`/v1/contacts/${created.body.id}`, {
      token: owner.token,
      body: { phone: '+442071838750', name: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ phone: '+442071838750', name: null, email: 'ada@example.com' });
    expect((await events('contact.created')).map((e) => e.payload.id)).toEqual([created.body.id]);
    const updated = await events('contact.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0].payload).toMatchObject({ id: created.body.id, phone: '+442071838750' });
  });

  it('rejects bad input and duplicates without writing events', async () => {
    await api.post('/v1/contacts', { token: owner.token, body: { email: 'dup@example.com' } });
    const before = (await t.deps.db('events').where({ account_id: owner.accountId })).length;
    for (const body of [
      {},
      { name: 'No address' },
      { email: 'nope' },
      { phone: '555-1234' },
      { email: 'a@example.com', extra: 1 },
      { email: 'a@example.com', metadata: 'x' },
    ]) {
      const res = await api.post('/v1/contacts', { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const dup = await api.post('/v1/contacts', { token: owner.token, body: { email: 'DUP@example.com' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('conflict');
    expect(
      (await api.post('/v1/contacts', { token: owner.token, body: { email: 'b@example.com', agentId: 'agt_nope' } }))
        .status,
    ).toBe(404);
    const c = (await api.post('/v1/contacts', { token: owner.token, body: { email: 'c@example.com' } })).body;
    const afterCreate = (await t.deps.db('events').where({ account_id: owner.accountId })).length;
    expect(afterCreate).toBe(before + 1);
    expect((await api.patch(`/v1/contacts/${c.id}`, { token: owner.token, body: { email: null } })).status).toBe(400);
    expect((await api.patch(`/v1/contacts/${c.id}`, { token: owner.token, body: {} })).status).toBe(400);
    expect(
      (await api.patch(`/v1/contacts/${c.id}`, { token: owner.token, body: { email: 'dup@example.com' } })).status,
    ).toBe(409);
    expect((await api.patch('/v1/contacts/ct_nope', { token: owner.token, body: { name: 'x' } })).status).toBe(404);
    expect((await api.get('/v1/contacts/ct_nope', { token: owner.token })).status).toBe(404);
    expect((await t.deps.db('events').where({ account_id: owner.accountId })).length).toBe(afterCreate);
  });

  it('keeps accounts apart and enforces read/write scopes', async () => {
    const mine = (await api.post('/v1/contacts', { token: owner.token, body: { email: 'private@example.com' } })).body;
    const other = await signupAccount(api, 'Other');
    expect((await api.get(`/v1/contacts/${mine.id}`, { token: other.token })).status).toBe(404);
    expect((await api.patch(`/v1/contacts/${mine.id}`, { token: other.token, body: { name: 'x' } })).status).toBe(404);
    expect((await api.get('/v1/contacts', { token: other.token })).body.data).toEqual([]);
    // The same address may exist once per account.
    expect(
      (await api.post('/v1/contacts', { token: other.token, body: { email: 'private@example.com' } })).status,
    ).toBe(201);

    const reader = await createAccountKey(api, owner.token); // default scopes include read:contacts
    expect((await api.get('/v1/contacts', { token: reader.key })).status).toBe(200);
    const write = await api.post('/v1/contacts', { token: reader.key, body: { email: 'k@example.com' } });
    expect(write.status).toBe(403);
    expect(write.body.error.details.requiredScope).toBe('write:contacts');
  });
});
