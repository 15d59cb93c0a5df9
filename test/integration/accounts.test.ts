import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';

let t: TestContext;
let api: Client;

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
});
afterAll(() => t.close());

describe('signup and login', () => {
  it('signs up an owner with 1,000 credits and a 12 h session stored only as a hash', async () => {
    const res = await api.post('/v1/auth/signup', {
      body: { accountName: 'Acme', email: 'Founder@Example.com', password: 'long enough pw' },
    });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email: 'founder@example.com', role: 'owner' });
    expect(res.body.account).toMatchObject({
      name: 'Acme',
      creditsBalance: 1000,
      plan: 'free',
      agentKeyMinting: 'admins',
    });
    expect(res.body.account.id).toMatch(/^acct_/);
    const { token, expiresAt } = res.body.session;
    expect(token).toMatch(/^ca_sess_[0-9A-Za-z]{40}$/);
    const ttl = Date.parse(expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(11.9 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(12 * 3600_000);
    const stored = await t.deps.db('sessions').where({ user_id: res.body.user.id });
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
    const me = await api.get('/v1/account', { token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(res.body.account.id);
  });

  it('rejects missing fields, wrong types and a short password, listing each field', async () => {
    const missing = await api.post('/v1/auth/signup', { body: { email: 'x@example.com' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('validation_error');
    const fields = missing.body.error.details.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['accountName', 'password']));

    const wrongType = await api.post('/v1/auth/signup', {
      body: { accountName: 42, email: 'y@example.com', password: 'long enough pw' },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.details.fields[0].field).toBe('accountName');

    const short = await api.post('/v1/auth/signup', {
      body: { accountName: 'A', email: 'z@example.com', password: 'short' },
    });
    expect(short.status).toBe(400);
    expect(short.body.error.details.fields[0]).toMatchObject({ field: 'password' });
    expect(await t.deps.db('users').where({ email: 'z@example.com' })).toHaveLength(0);
  });

  it('rejects a duplicate email (any case) with 409 and creates no second account', async () => {
    const before = await t.deps.db('accounts').count<{ count: number }[]>({ count: '*' });
    const dup = await api.post('/v1/auth/signup', {
      body: { accountName: 'Other', email: 'FOUNDER@example.com', password: 'long enough pw' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('conflict');
    const after = await t.deps.db('accounts').count<{ count: number }[]>({ count: '*' });
    expect(after[0]!.count).toBe(before[0]!.count);
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    const wrong = await api.post('/v1/auth/login', {
      body: { email: 'founder@example.com', password: 'not the password' },
    });
    const unknown = await api.post('/v1/auth/login', {
      body: { email: 'nobody@example.com', password: 'not the password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.code).toBe(unknown.body.error.code);
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
    expect(wrong.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('logs in and out; the logged-out token stops working at once', async () => {
    const login = await api.post('/v1/auth/login', {
      body: { email: 'founder@example.com', password: 'long enough pw' },
    });
    expect(login.status).toBe(200);
    const token = login.body.session.token;
    expect((await api.get('/v1/account', { token })).status).toBe(200);
    expect((await api.post('/v1/auth/logout', { token })).status).toBe(204);
    const after = await api.get('/v1/account', { token });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('invalid_credential');
  });

  it('rejects an expired session with session_expired', async () => {
    const owner = await signupAccount(api);
    await t.deps
      .db('sessions')
      .where({ user_id: owner.userId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const res = await api.get('/v1/account', { token: owner.token });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('session_expired');
  });

  it('answers 401 missing_credential without a bearer token', async () => {
    const res = await api.get('/v1/account');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('missing_credential');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });
});

describe('team and account policy', () => {
  it('lets an owner add members and admins, and forbids members from admin actions', async () => {
    const owner = await signupAccount(api);
    const add = await api.post('/v1/team/members', {
      token: owner.token,
      body: { email: 'member@acme.test', password: 'member password', role: 'member' },
    });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ email: 'member@acme.test', role: 'member', accountId: owner.accountId });

    const list = await api.get('/v1/team/members', { token: owner.token });
    expect(list.body.data.map((u: { email: string }) => u.email).sort()).toEqual(
      ['member@acme.test', owner.email].sort(),
    );
    expect(list.body).toMatchObject({ hasMore: false, nextCursor: null });

    const memberLogin = await api.post('/v1/auth/login', {
      body: { email: 'member@acme.test', password: 'member password' },
    });
    const memberToken = memberLogin.body.session.token;
    for (const res of [
      await api.get('/v1/team/members', { token: memberToken }),
      await api.post('/v1/team/members', {
        token: memberToken,
        body: { email: 'x@acme.test', password: 'member password', role: 'admin' },
      }),
      await api.patch('/v1/account', { token: memberToken, body: { agentKeyMinting: 'account_keys' } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('admin_session_required');
    }
    expect(await t.deps.db('users').where({ email: 'x@acme.test' })).toHaveLength(0);
    // A member can still read the account.
    expect((await api.get('/v1/account', { token: memberToken })).status).toBe(200);
  });

  it('changes the agentKeyMinting policy as an admin, validates it, and audits it', async () => {
    const owner = await signupAccount(api);
    const bad = await api.patch('/v1/account', { token: owner.token, body: { agentKeyMinting: 'everyone' } });
    expect(bad.status).toBe(400);
    const ok = await api.patch('/v1/account', { token: owner.token, body: { agentKeyMinting: 'account_keys' } });
    expect(ok.status).toBe(200);
    expect(ok.body.agentKeyMinting).toBe('account_keys');
    const logs = await api.get('/v1/logs', { token: owner.token });
    expect(logs.body.data[0]).toMatchObject({ action: 'account.updated', actor: { type: 'user', id: owner.userId } });
  });

  it('pages lists with a cursor and rejects a forged cursor', async () => {
    const owner = await signupAccount(api);
    for (let i = 0; i < 3; i++) {
      await api.post('/v1/team/members', {
        token: owner.token,
        body: { email: `p${i}-${owner.accountId}@acme.test`, password: 'member password', role: 'member' },
      });
    }
    const first = await api.get('/v1/team/members?limit=2', { token: owner.token });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const second = await api.get(`/v1/team/members?limit=2&cursor=${first.body.nextCursor}`, { token: owner.token });
    expect(second.body.data).toHaveLength(2);
    expect(second.body.hasMore).toBe(false);
    const ids = [...first.body.data, ...second.body.data].map((u: { id: string }) => u.id);
    expect(new Set(ids).size).toBe(4);
    expect((await api.get('/v1/team/members?limit=0', { token: owner.token })).status).toBe(400);
    expect((await api.get('/v1/team/members?cursor=garbage', { token: owner.token })).status).toBe(400);
  });
});

describe('with SIGNUP_ENABLED=false', () => {
  let closed: TestContext;
  beforeAll(async () => {
    closed = await createTestContext({ SIGNUP_ENABLED: 'false' });
  });
  afterAll(() => closed.close());

  it('refuses sign-up with 403 signup_disabled and creates nothing', async () => {
    const res = await client(closed.url).post('/v1/auth/signup', {
      body: { accountName: 'Nope', email: 'nope@example.com', password: 'long enough pw' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('signup_disabled');
    expect(await closed.deps.db('accounts')).toHaveLength(0);
    expect(await closed.deps.db('users')).toHaveLength(0);
  });
});
