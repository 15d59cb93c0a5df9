import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.js';
import { sweepExpiredKeys } from '../../src/keys/keys-sweep.service.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, createAgentKey, updateKeyRow } from '../helpers/keys.js';

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let member: string;
let agentId: string;

const METADATA = [
  'id',
  'name',
  'keyType',
  'keyPrefix',
  'agentId',
  'scopes',
  'status',
  'expiresAt',
  'allowedIps',
  'spendCapCredits',
  'spentCredits',
  'lastUsedAt',
  'lastUsedIp',
  'createdAt',
  'rotationGraceUntil',
  'spendCapInterval',
  'spendCapRefillDay',
  'remainingCredits',
  'nextRefillAt',
  'rateLimits',
].sort();

beforeAll(async () => {
  t = await createTestContext({ KEY_ROTATION_GRACE_SECONDS: '120' });
  api = client(t.url);
  owner = await signupAccount(api);
  agentId = await createAgent(t, owner.accountId);
  const email = `member-${Date.now()}@example.com`;
  expect(
    (
      await api.post('/v1/team/members', {
        token: owner.token,
        body: { email, password: 'member password', role: 'member' },
      })
    ).status,
  ).toBe(201);
  member = (await api.post('/v1/auth/login', { body: { email, password: 'member password' } })).body.session.token;
});
afterAll(() => t.close());

const auditActions = async (targetId: string) =>
  (await t.deps.db('audit_log').where({ target_id: targetId }).orderBy('created_at')).map((r) => r.action);

describe('account keys', () => {
  it('creates a key with default scopes, shows the secret once and stores only its hash', async () => {
    const { id, key, body } = await createAccountKey(api, owner.token);
    expect(key).toMatch(/^ca_acct_[0-9A-Za-z]{38}$/);
    expect(body).toMatchObject({
      id,
      name: 'test key',
      keyType: 'account',
      keyPrefix: 'ca_acct_',
      agentId: null,
      status: 'active',
      scopes: ['read:agents', 'read:contacts', 'read:account'],
      spentCredits: 0,
      spendCapCredits: null,
      allowedIps: [],
      expiresAt: null,
    });
    expect(id).toMatch(/^key_/);
    const row = await t.deps.db('api_keys').where({ id }).first();
    expect(JSON.stringify(row)).not.toContain(key);
    expect((await api.get('/v1/account', { token: key })).status).toBe(200);
  });

  it('creates a key with scopes, wildcards, restrictions and a spend cap', async () => {
    const expiresAt = new Date(Date.now() + 30 * 86400_000).toISOString();
    const { body } = await createAccountKey(api, owner.token, {
      name: 'ci',
      scopes: ['read:*', '*:agents', 'messages:send', 'read:*'],
      expiresAt,
      allowedIps: ['127.0.0.1', '10.0.0.0/8'],
      spendCapCredits: 50,
    });
    expect(body).toMatchObject({
      name: 'ci',
      scopes: ['read:*', '*:agents', 'messages:send'],
      expiresAt,
      allowedIps: ['127.0.0.1', '10.0.0.0/8'],
      spendCapCredits: 50,
    });
  });

  it('lists and gets metadata only, never the secret or its hash, paged', async () => {
    const { id, key } = await createAccountKey(api, owner.token, { name: 'listed' });
    const hash = (await t.deps.db('api_keys').where({ id }).first()).secret_hash;
    const list = await api.get('/v1/api_keys?limit=2', { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ hasMore: true });
    expect(list.body.data).toHaveLength(2);
    expect(Object.keys(list.body.data[0]).sort()).toEqual(METADATA);
    const next = await api.get(`/v1/api_keys?limit=100&cursor=${list.body.nextCursor}`, { token: owner.token });
    expect(next.body.data.length).toBeGreaterThan(0);
    const got = await api.get(`/v1/api_keys/${id}`, { token: owner.token });
    expect(got.status).toBe(200);
    expect(Object.keys(got.body).sort()).toEqual(METADATA);
    for (const body of [list.body, next.body, got.body]) {
      expect(JSON.stringify(body)).not.toContain(key);
      expect(JSON.stringify(body)).not.toContain(hash);
    }
  });

  it('lets a key with read:api_keys list keys, and refuses one without it', async () => {
    const reader = await createAccountKey(api, owner.token, { scopes: ['read:api_keys'] });
    expect((await api.get('/v1/api_keys', { token: reader.key })).status).toBe(200);
    const plain = await createAccountKey(api, owner.token);
    const res = await api.get('/v1/api_keys', { token: plain.key });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'insufficient_scope', details: { requiredScope: 'read:api_keys' } });
  });

  it('keeps key management to admin sessions: keys and members get 403 admin_session_required', async () => {
    const powerful = await createAccountKey(api, owner.token, { scopes: ['read:*', '*:agents', 'read:api_keys'] });
    const target = await createAccountKey(api, owner.token);
    for (const token of [powerful.key, member]) {
      for (const res of [
        await api.post('/v1/api_keys', { token, body: { name: 'child' } }),
        await api.patch(`/v1/api_keys/${target.id}`, { token, body: { name: 'renamed' } }),
        await api.post(`/v1/api_keys/${target.id}/rotate`, { token }),
        await api.post(`/v1/api_keys/${target.id}/deactivate`, { token }),
        await api.delete(`/v1/api_keys/${target.id}`, { token }),
        await api.post('/v1/billing/credits', { token, body: { amount: 10 } }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('admin_session_required');
      }
    }
    expect((await api.get('/v1/account', { token: target.key })).status).toBe(200);
  });

  it('edits name, allowedIps, expiresAt and spend cap; audits the change', async () => {
    const { id } = await createAccountKey(api, owner.token, { scopes: ['messages:send'] });
    const expiresAt = new Date(Date.now() + 86400_000).toISOString();
    const res = await api.patch(`/v1/api_keys/${id}`, {
      token: owner.token,
      body: { name: 'renamed', allowedIps: ['192.0.2.0/24'], expiresAt, spendCapCredits: 10 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'renamed', allowedIps: ['192.0.2.0/24'], expiresAt, spendCapCredits: 10 });
    const cleared = await api.patch(`/v1/api_keys/${id}`, {
      token: owner.token,
      body: { expiresAt: null, allowedIps: [] },
    });
    expect(cleared.body).toMatchObject({ expiresAt: null, allowedIps: [] });
    expect((await api.patch(`/v1/api_keys/${id}`, { token: owner.token, body: { scopes: ['*'] } })).status).toBe(400);
    expect(await auditActions(id)).toEqual(['api_key.created', 'api_key.edited', 'api_key.edited']);
  });

  it('rotates: new secret once, old one until rotationGraceUntil (now + KEY_ROTATION_GRACE_SECONDS)', async () => {
    const { id } = await createAccountKey(api, owner.token);
    const res = await api.post(`/v1/api_keys/${id}/rotate`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id);
    expect(res.body.key).toMatch(/^ca_acct_/);
    const grace = Date.parse(res.body.rotationGraceUntil) - Date.now();
    expect(grace).toBeGreaterThan(110_000);
    expect(grace).toBeLessThanOrEqual(120_000);
    const got = await api.get(`/v1/api_keys/${id}`, { token: owner.token });
    expect(got.body.key).toBeUndefined();
    expect(got.body.rotationGraceUntil).toBe(res.body.rotationGraceUntil);
  });

  it('deactivates (idempotently; no rotation after) and deletes (twice is 404); each step audited with actor and IP', async () => {
    const { id } = await createAccountKey(api, owner.token);
    const first = await api.post(`/v1/api_keys/${id}/deactivate`, { token: owner.token });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('deactivated');
    expect((await api.post(`/v1/api_keys/${id}/deactivate`, { token: owner.token })).body.status).toBe('deactivated');
    const rotate = await api.post(`/v1/api_keys/${id}/rotate`, { token: owner.token });
    expect(rotate.status).toBe(409);
    expect((await api.delete(`/v1/api_keys/${id}`, { token: owner.token })).status).toBe(204);
    expect((await api.delete(`/v1/api_keys/${id}`, { token: owner.token })).status).toBe(404);
    expect((await api.get(`/v1/api_keys/${id}`, { token: owner.token })).status).toBe(404);
    expect(await t.deps.db('api_keys').where({ id })).toHaveLength(0);

    const logs = await api.get('/v1/logs?limit=100', { token: owner.token });
    const mine = logs.body.data.filter((l: any) => l.target?.id === id).map((l: any) => l.action);
    expect(mine).toEqual(['api_key.deleted', 'api_key.deactivated', 'api_key.created']);
    const entry = logs.body.data.find((l: any) => l.target?.id === id && l.action === 'api_key.deleted');
    expect(entry).toMatchObject({ actor: { type: 'user', id: owner.userId }, ip: '127.0.0.1' });
  });

  it("answers 404 for another account's key, on every key route", async () => {
    const { id } = await createAccountKey(api, owner.token);
    const other = await signupAccount(api, 'Other');
    for (const res of [
      await api.get(`/v1/api_keys/${id}`, { token: other.token }),
      await api.patch(`/v1/api_keys/${id}`, { token: other.token, body: { name: 'mine now' } }),
      await api.post(`/v1/api_keys/${id}/rotate`, { token: other.token }),
      await api.post(`/v1/api_keys/${id}/deactivate`, { token: other.token }),
      await api.delete(`/v1/api_keys/${id}`, { token: other.token }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await api.get('/v1/api_keys', { token: other.token })).body.data).toEqual([]);
    expect((await t.deps.db('api_keys').where({ id }).first()).status).toBe('active');
  });

  it('records lastUsedAt and lastUsedIp without writing on every request', async () => {
    const { id, key } = await createAccountKey(api, owner.token);
    expect((await api.get(`/v1/api_keys/${id}`, { token: owner.token })).body.lastUsedAt).toBeNull();
    await api.get('/v1/account', { token: key });
    await expect.poll(async () => (await t.deps.db('api_keys').where({ id }).first()).last_used_at).not.toBeNull();
    const firstUse = (await t.deps.db('api_keys').where({ id }).first()).last_used_at;
    for (let i = 0; i < 5; i++) await api.get('/v1/account', { token: key });
    // A later sentinel: another key's first use is written after these five requests, so once it is visible a
    // write of theirs would be too.
    const sentinel = await createAccountKey(api, owner.token);
    await api.get('/v1/account', { token: sentinel.key });
    await expect
      .poll(async () => (await t.deps.db('api_keys').where({ id: sentinel.id }).first()).last_used_at)
      .not.toBeNull();
    const row = await t.deps.db('api_keys').where({ id }).first();
    expect(row.last_used_at).toEqual(firstUse);
    expect(row.last_used_ip).toBe('127.0.0.1');
    expect((await api.get(`/v1/api_keys/${id}`, { token: owner.token })).body).toMatchObject({
      lastUsedIp: '127.0.0.1',
      lastUsedAt: firstUse.toISOString(),
    });
  });
});

describe('per-agent key minting', () => {
  it('mints with defaults or opt-in scopes for an admin session', async () => {
    const { body } = await createAgentKey(api, owner.token, agentId, {
      scopes: ['agent:config:read', 'agent:trigger'],
      spendCapCredits: 20,
    });
    expect(body).toMatchObject({
      keyType: 'agent',
      agentId,
      keyPrefix: 'ca_agt_',
      scopes: ['agent:config:read', 'agent:trigger'],
      spendCapCredits: 20,
    });
    expect(await auditActions(body.id)).toEqual(['api_key.created']);
  });

  it('answers 404 for an agent of another account and for an unknown agent', async () => {
    const other = await signupAccount(api, 'Other');
    const foreign = await createAgent(t, other.accountId);
    for (const id of [foreign, 'agt_nope']) {
      const res = await api.post(`/v1/agents/${id}/api-keys`, { token: owner.token, body: { name: 'x' } });
      expect(res.status).toBe(404);
    }
  });

  it('follows agentKeyMinting: admins only by default, account keys with write:agents under account_keys', async () => {
    const writer = await createAccountKey(api, owner.token, { scopes: ['write:agents'] });
    const reader = await createAccountKey(api, owner.token, { scopes: ['read:agents'] });
    const denied = await api.post(`/v1/agents/${agentId}/api-keys`, { token: writer.key, body: { name: 'k' } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('admin_session_required');
    const memberRes = await api.post(`/v1/agents/${agentId}/api-keys`, { token: member, body: { name: 'k' } });
    expect(memberRes.body.error.code).toBe('admin_session_required');

    expect(
      (await api.patch('/v1/account', { token: owner.token, body: { agentKeyMinting: 'account_keys' } })).status,
    ).toBe(200);
    const minted = await createAgentKey(api, writer.key, agentId);
    expect(minted.body).toMatchObject({ keyType: 'agent', agentId });
    const log = await t.deps.db('audit_log').where({ target_id: minted.id }).first();
    expect(log).toMatchObject({ actor_type: 'key', actor_id: writer.id });
    const noScope = await api.post(`/v1/agents/${agentId}/api-keys`, { token: reader.key, body: { name: 'k' } });
    expect(noScope.status).toBe(403);
    expect(noScope.body.error).toMatchObject({
      code: 'insufficient_scope',
      details: { requiredScope: 'write:agents' },
    });
    expect((await api.post(`/v1/agents/${agentId}/api-keys`, { token: member, body: { name: 'k' } })).status).toBe(403);
    await api.patch('/v1/account', { token: owner.token, body: { agentKeyMinting: 'admins' } });
  });

  it('answers at the alias /v1/agents/:agentId/api_keys exactly as at /api-keys: same rules, same replay', async () => {
    const mint = (token: string, body: object, opts: { agent?: string; headers?: Record<string, string> } = {}) =>
      api.post(`/v1/agents/${opts.agent ?? agentId}/api_keys`, { token, body, headers: opts.headers });
    const minted = await mint(owner.token, { name: 'alias', scopes: ['agent:trigger'] });
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({
      keyType: 'agent',
      agentId,
      scopes: ['agent:trigger'],
      key: expect.stringMatching(/^ca_agt_/),
    });
    expect((await mint(member, { name: 'k' })).body.error).toMatchObject({ code: 'admin_session_required' });
    expect((await mint(owner.token, { name: 'k', scopes: ['read:agents'] })).body.error).toMatchObject({
      code: 'invalid_scope',
    });
    expect((await mint(owner.token, { name: 'x' }, { agent: 'agt_nope' })).status).toBe(404);
    const headers = { 'idempotency-key': `alias-${agentId}` };
    const first = await mint(owner.token, { name: 'once' }, { headers });
    const replay = await mint(owner.token, { name: 'once' }, { headers });
    expect({ status: replay.status, id: replay.body.id, key: replay.body.key }).toEqual({
      status: 201,
      id: first.body.id,
      key: null,
    });
  });

  it('deletes per-agent keys with their agent', async () => {
    const doomed = await createAgent(t, owner.accountId, 'Doomed');
    const { id, key } = await createAgentKey(api, owner.token, doomed);
    await t.deps.db('agents').where({ id: doomed }).delete();
    expect(await t.deps.db('api_keys').where({ id })).toHaveLength(0);
    expect((await api.get(`/v1/agents/${doomed}`, { token: key })).status).toBe(401);
  });
});

describe('key-expiry sweep', () => {
  it('marks keys past expiresAt expired with an audit entry by the system, ends old graces, and warns 7 days ahead once', async () => {
    const soon = await createAccountKey(api, owner.token, {
      name: 'soon',
      expiresAt: new Date(Date.now() + 3 * 86400_000).toISOString(),
    });
    const later = await createAccountKey(api, owner.token, {
      name: 'later',
      expiresAt: new Date(Date.now() + 30 * 86400_000).toISOString(),
    });
    const gone = await createAccountKey(api, owner.token, {
      name: 'gone',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await updateKeyRow(t, gone.id, { expires_at: new Date(Date.now() - 1000) });
    const rotated = await createAccountKey(api, owner.token, { name: 'rotated' });
    await api.post(`/v1/api_keys/${rotated.id}/rotate`, { token: owner.token });
    await updateKeyRow(t, rotated.id, { rotation_grace_until: new Date(Date.now() - 1000) });

    const workers = await t.startWorkers();
    const job = await t.deps.queues.maintenance.add('sweep-expired-keys', {});
    await expect
      .poll(
        async () =>
          (await job.isCompleted()) || (await t.deps.queues.maintenance.getJob(job.id!))?.finishedOn !== undefined,
        { timeout: 10_000 },
      )
      .toBe(true);
    await workers.close();

    expect((await api.get(`/v1/api_keys/${gone.id}`, { token: owner.token })).body.status).toBe('expired');
    const logs = (await api.get('/v1/logs?limit=100', { token: owner.token })).body.data;
    expect(logs.find((l: any) => l.target?.id === gone.id && l.action === 'api_key.expired')).toMatchObject({
      actor: { type: 'system', id: null },
    });
    const rotatedRow = await t.deps.db('api_keys').where({ id: rotated.id }).first();
    expect(rotatedRow.previous_secret_hash).toBeNull();
    expect((await api.get(`/v1/api_keys/${rotated.id}`, { token: owner.token })).body.rotationGraceUntil).toBeNull();

    const notes = (await api.get('/v1/notifications', { token: owner.token })).body.data.filter(
      (n: any) => n.kind === 'api_key.expiring',
    );
    expect(notes.map((n: any) => n.data.keyId)).toEqual([soon.id]);
    expect(later.id).not.toBe(soon.id);

    const extend = await api.patch(`/v1/api_keys/${gone.id}`, {
      token: owner.token,
      body: { expiresAt: new Date(Date.now() + 86400_000).toISOString() },
    });
    expect(extend.status).toBe(409);

    const again = await sweepExpiredKeys(t.deps);
    expect(again).toEqual({ expired: 0, gracesEnded: 0, warned: 0 });
    const still = (await api.get('/v1/notifications', { token: owner.token })).body.data.filter(
      (n: any) => n.kind === 'api_key.expiring',
    );
    expect(still).toHaveLength(1);
  });

  it('is scheduled every minute on the maintenance queue', async () => {
    const { schedules } = await import('../../workers/schedules.js');
    expect(schedules.find((s) => s.id === 'sweep-expired-keys')).toMatchObject({
      job: { queue: 'maintenance', name: 'sweep-expired-keys' },
    });
    expect(loadConfig({ APP_SECRET: 'x'.repeat(40) }).schedules.everyMs['sweep-expired-keys']).toBe(60_000);
  });
});
