import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { checksumOf } from '../../src/auth/key-secret.js';
import { randomBase62 } from '../../src/platform/ids.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, createAgentKey, updateKeyRow } from '../helpers/keys.js';
import { waitUntil } from '../helpers/wait.js';

// Every attack on key authentication we know of (docs/api-keys.md#api-keys-and-authorization), each its own test,
// over real HTTP.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentId: string;

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  agentId = await createAgent(t, owner.accountId, 'Support bot');
});
afterAll(() => t.close());

async function expectRejected(token: string, status: number, code: string, path = '/v1/account') {
  const res = await api.get(path, { token });
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (status === 401) expect(res.headers.get('www-authenticate')).toContain('invalid_token');
  return res;
}

describe('secrets that are not keys of ours', () => {
  let key: string;
  beforeAll(async () => {
    key = (await createAccountKey(api, owner.token)).key;
    expect((await api.get('/v1/account', { token: key })).status).toBe(200);
  });

  it('rejects an unknown, well-formed secret (valid checksum) with 401 invalid_credential', async () => {
    const body = randomBase62(32);
    await expectRejected(`ca_acct_${body}${checksumOf(body)}`, 401, 'invalid_credential');
    await expectRejected(`ca_agt_${body}${checksumOf(body)}`, 401, 'invalid_credential');
  });

  it('rejects malformed secrets', async () => {
    for (const bad of [
      'ca_acct_',
      'ca_acct_hello',
      'ca_acct_' + '!'.repeat(38),
      'ca_agt_' + key.slice(8).replace(/./, '_'),
      'garbage',
    ]) {
      await expectRejected(bad, 401, 'invalid_credential');
    }
  });

  it('rejects a truncated secret and one with extra characters', async () => {
    await expectRejected(key.slice(0, -1), 401, 'invalid_credential');
    await expectRejected(key.slice(0, 30), 401, 'invalid_credential');
    await expectRejected(key + 'A', 401, 'invalid_credential');
  });

  it('rejects the right body under the wrong prefix', async () => {
    await expectRejected('ca_agt_' + key.slice(8), 401, 'invalid_credential');
    await expectRejected('ca_sess_' + key.slice(8), 401, 'invalid_credential');
    await expectRejected('CA_ACCT_' + key.slice(8), 401, 'invalid_credential');
  });

  it('rejects a wrong checksum', async () => {
    const last = key.at(-1) === 'a' ? 'b' : 'a';
    await expectRejected(key.slice(0, -1) + last, 401, 'invalid_credential');
  });

  it('rejects malformed, truncated, wrong-checksum strings before any database lookup', async () => {
    const seen: string[] = [];
    const listener = (q: { sql: string }) => seen.push(q.sql);
    t.deps.db.on('query', listener);
    try {
      const last = key.at(-1) === 'a' ? 'b' : 'a';
      for (const bad of [
        'ca_acct_hello',
        key.slice(0, -1),
        key.slice(0, -1) + last,
        key + 'A',
        'ca_agt_' + '0'.repeat(38),
      ]) {
        await expectRejected(bad, 401, 'invalid_credential');
      }
    } finally {
      t.deps.db.off('query', listener);
    }
    expect(seen.filter((sql) => sql.includes('api_keys'))).toEqual([]);

    // The listener does see lookups: a well-formed unknown secret is looked up (and rejected the same way).
    t.deps.db.on('query', listener);
    try {
      const body = randomBase62(32);
      await expectRejected(`ca_acct_${body}${checksumOf(body)}`, 401, 'invalid_credential');
    } finally {
      t.deps.db.off('query', listener);
    }
    expect(seen.some((sql) => sql.includes('api_keys'))).toBe(true);
  });

  it('answers a missing or non-bearer Authorization with 401 missing_credential', async () => {
    const none = await api.get('/v1/account');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('missing_credential');
    const basic = await api.get('/v1/account', {
      headers: { authorization: `Basic ${Buffer.from(key).toString('base64')}` },
    });
    expect(basic.body.error.code).toBe('missing_credential');
  });
});

describe('key lifecycle on the request path', () => {
  it('accepts the old secret during the rotation grace with Deprecation and Sunset headers, then rejects it', async () => {
    const { id, key: oldKey } = await createAccountKey(api, owner.token);
    const rotated = await api.post(`/v1/api_keys/${id}/rotate`, { token: owner.token });
    expect(rotated.status).toBe(200);
    const graceUntil = new Date(rotated.body.rotationGraceUntil);

    const during = await api.get('/v1/account', { token: oldKey });
    expect(during.status).toBe(200);
    expect(during.headers.get('deprecation')).toBe('true');
    expect(during.headers.get('sunset')).toBe(graceUntil.toUTCString());
    const fresh = await api.get('/v1/account', { token: rotated.body.key });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('deprecation')).toBeNull();

    await updateKeyRow(t, id, { rotation_grace_until: new Date(Date.now() - 1000) });
    await expectRejected(oldKey, 401, 'invalid_credential');
    expect((await api.get('/v1/account', { token: rotated.body.key })).status).toBe(200);
  });

  it('ends the first old secret at once when the key is rotated a second time', async () => {
    const { id, key: first } = await createAccountKey(api, owner.token);
    const second = (await api.post(`/v1/api_keys/${id}/rotate`, { token: owner.token })).body.key;
    const third = (await api.post(`/v1/api_keys/${id}/rotate`, { token: owner.token })).body.key;
    await expectRejected(first, 401, 'invalid_credential');
    expect((await api.get('/v1/account', { token: second })).status).toBe(200);
    expect((await api.get('/v1/account', { token: third })).status).toBe(200);
  });

  it('rejects a deleted key with 401 invalid_credential', async () => {
    const { id, key } = await createAccountKey(api, owner.token);
    expect((await api.delete(`/v1/api_keys/${id}`, { token: owner.token })).status).toBe(204);
    await expectRejected(key, 401, 'invalid_credential');
  });

  it('rejects an expired key by time alone (before any sweep) with 401 key_expired', async () => {
    const { id, key } = await createAccountKey(api, owner.token, {
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await api.get('/v1/account', { token: key })).status).toBe(200);
    await updateKeyRow(t, id, { expires_at: new Date(Date.now() - 1) });
    expect((await t.deps.db('api_keys').where({ id }).first()).status).toBe('active');
    await expectRejected(key, 401, 'key_expired');
  });

  it('rejects a deactivated key with 401 key_deactivated, also its old secret in grace', async () => {
    const { id, key } = await createAccountKey(api, owner.token);
    const rotated = (await api.post(`/v1/api_keys/${id}/rotate`, { token: owner.token })).body.key;
    expect((await api.post(`/v1/api_keys/${id}/deactivate`, { token: owner.token })).status).toBe(200);
    await expectRejected(rotated, 401, 'key_deactivated');
    await expectRejected(key, 401, 'invalid_credential');
  });

  it('makes deactivate and delete effective on the very next request on a second instance that just served the key', async () => {
    const other = await t.startAnotherServer();
    const api2 = client(other.url);
    const a = await createAccountKey(api, owner.token);
    const b = await createAccountKey(api, owner.token);
    expect((await api2.get('/v1/account', { token: a.key })).status).toBe(200);
    expect((await api2.get('/v1/account', { token: b.key })).status).toBe(200);
    expect((await api.post(`/v1/api_keys/${a.id}/deactivate`, { token: owner.token })).status).toBe(200);
    expect((await api.delete(`/v1/api_keys/${b.id}`, { token: owner.token })).status).toBe(204);
    const afterDeactivate = await api2.get('/v1/account', { token: a.key });
    expect(afterDeactivate.status).toBe(401);
    expect(afterDeactivate.body.error.code).toBe('key_deactivated');
    const afterDelete = await api2.get('/v1/account', { token: b.key });
    expect(afterDelete.status).toBe(401);
    expect(afterDelete.body.error.code).toBe('invalid_credential');
  });
});

describe('cached key rows on a second instance', () => {
  it('sees a rotation, an edit and a deactivation on the very next request, even under concurrent load', async () => {
    const other = await t.startAnotherServer();
    const api2 = client(other.url);
    const { id, key } = await createAccountKey(api, owner.token);
    expect((await api2.get('/v1/account', { token: key })).headers.get('deprecation')).toBeNull();

    const rotated = (await api.post(`/v1/api_keys/${id}/rotate`, { token: owner.token })).body.key;
    const viaOld = await api2.get('/v1/account', { token: key });
    expect(viaOld.status).toBe(200);
    expect(viaOld.headers.get('deprecation')).toBe('true');
    expect((await api2.get('/v1/account', { token: rotated })).status).toBe(200);
    await api.post(`/v1/api_keys/${id}/rotate`, { token: owner.token });
    expect((await api2.get('/v1/account', { token: key })).status).toBe(401);

    const current = (await api.post(`/v1/api_keys/${id}/rotate`, { token: owner.token })).body.key;
    expect((await api2.get('/v1/account', { token: current })).status).toBe(200);
    expect(
      (await api.patch(`/v1/api_keys/${id}`, { token: owner.token, body: { allowedIps: ['203.0.113.1'] } })).status,
    ).toBe(200);
    expect((await api2.get('/v1/account', { token: current })).body.error.code).toBe('ip_not_allowed');
    expect((await api.patch(`/v1/api_keys/${id}`, { token: owner.token, body: { allowedIps: [] } })).status).toBe(200);
    expect((await api2.get('/v1/account', { token: current })).status).toBe(200);

    let stop = false;
    let rounds = 0;
    const background = (async () => {
      for (; !stop; rounds++) {
        await Promise.all(Array.from({ length: 5 }, () => api2.get('/v1/account', { token: current })));
      }
    })();
    // Requests with the key are under way when it is deactivated.
    await waitUntil(() => rounds >= 1, 30_000, 'a round of requests with the key');
    expect((await api.post(`/v1/api_keys/${id}/deactivate`, { token: owner.token })).status).toBe(200);
    const after = await Promise.all(Array.from({ length: 20 }, () => api2.get('/v1/account', { token: current })));
    stop = true;
    await background;
    expect(after.map((r) => r.body.error?.code)).toEqual(Array(20).fill('key_deactivated'));
  });
});

describe('source IP restrictions', () => {
  it('rejects a key used from a disallowed IP with 403 ip_not_allowed and allows a listed one', async () => {
    const outside = await createAccountKey(api, owner.token, { allowedIps: ['203.0.113.0/24', '2001:db8::/32'] });
    const res = await expectRejected(outside.key, 403, 'ip_not_allowed');
    expect(res.body.error.details.ip).toBe('127.0.0.1');
    const inside = await createAccountKey(api, owner.token, { allowedIps: ['127.0.0.0/8'] });
    expect((await api.get('/v1/account', { token: inside.key })).status).toBe(200);
    const mapped = await createAccountKey(api, owner.token, { allowedIps: ['::ffff:127.0.0.1'] });
    expect((await api.get('/v1/account', { token: mapped.key })).status).toBe(200);
  });

  it('ignores a spoofed X-Forwarded-For when no proxy is trusted', async () => {
    const { key } = await createAccountKey(api, owner.token, { allowedIps: ['203.0.113.5'] });
    for (const xff of ['203.0.113.5', '203.0.113.5, 127.0.0.1', '127.0.0.1, 203.0.113.5']) {
      const res = await api.get('/v1/account', { token: key, headers: { 'x-forwarded-for': xff } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('ip_not_allowed');
    }
  });

  it('with TRUST_PROXY_HOPS=1 takes only the entry the trusted proxy appended', async () => {
    const t2 = await createTestContext({ TRUST_PROXY_HOPS: '1' });
    try {
      const api2 = client(t2.url);
      const o = await signupAccount(api2);
      const { key } = await createAccountKey(api2, o.token, { allowedIps: ['203.0.113.5'] });
      expect(
        (await api2.get('/v1/account', { token: key, headers: { 'x-forwarded-for': '203.0.113.5' } })).status,
      ).toBe(200);
      const spoofed = await api2.get('/v1/account', {
        token: key,
        headers: { 'x-forwarded-for': '203.0.113.5, 198.51.100.1' },
      });
      expect(spoofed.status).toBe(403);
    } finally {
      await t2.close();
    }
  });

  it('rejects invalid CIDRs and addresses at creation and on edit with 400, listing the entry', async () => {
    for (const bad of ['10.0.0.0/33', '1.2.3', '300.1.1.1', '2001:db8::/129', 'example.com', '10.0.0.0/']) {
      const res = await api.post('/v1/api_keys', {
        token: owner.token,
        body: { name: 'ip', allowedIps: ['127.0.0.1', bad] },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields[0].field).toBe('allowedIps.1');
    }
    const { id } = await createAccountKey(api, owner.token);
    const patch = await api.patch(`/v1/api_keys/${id}`, { token: owner.token, body: { allowedIps: ['10.0.0.0/40'] } });
    expect(patch.status).toBe(400);
    expect((await t.deps.db('api_keys').where({ id }).first()).allowed_ips).toEqual([]);
  });

  it('rejects expiresAt in the past or now, at creation and on edit', async () => {
    const past = await api.post('/v1/api_keys', {
      token: owner.token,
      body: { name: 'old', expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.status).toBe(400);
    expect(past.body.error.details.fields[0].field).toBe('expiresAt');
    const notDate = await api.post('/v1/api_keys', {
      token: owner.token,
      body: { name: 'old', expiresAt: 'tomorrow' },
    });
    expect(notDate.status).toBe(400);
    const { id } = await createAccountKey(api, owner.token);
    const patch = await api.patch(`/v1/api_keys/${id}`, {
      token: owner.token,
      body: { expiresAt: '2001-01-01T00:00:00Z' },
    });
    expect(patch.status).toBe(400);
  });
});

describe('per-agent keys stay inside their agent', () => {
  let agentKey: string;
  let otherAgentId: string;
  let foreignAgentId: string;

  beforeAll(async () => {
    agentKey = (
      await createAgentKey(api, owner.token, agentId, {
        scopes: ['agent:config:read', 'agent:config:write', 'agent:trigger'],
      })
    ).key;
    otherAgentId = await createAgent(t, owner.accountId, 'Sales bot');
    const stranger = await signupAccount(api, 'Stranger');
    foreignAgentId = await createAgent(t, stranger.accountId, 'Foreign bot');
  });

  it('reads its own agent', async () => {
    const res = await api.get(`/v1/agents/${agentId}`, { token: agentKey });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(agentId);
  });

  it("gets 403 agent_forbidden on another agent of its account and on another account's agent", async () => {
    for (const id of [otherAgentId, foreignAgentId, 'agt_doesnotexist']) {
      for (const res of [
        await api.get(`/v1/agents/${id}`, { token: agentKey }),
        await api.patch(`/v1/agents/${id}`, { token: agentKey, body: { config: { a: 1 } } }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('agent_forbidden');
      }
    }
  });

  it('gets 403 agent_forbidden on the agents collection', async () => {
    const list = await api.get('/v1/agents', { token: agentKey });
    expect(list.status).toBe(403);
    expect(list.body.error.code).toBe('agent_forbidden');
    const create = await api.post('/v1/agents', { token: agentKey, body: { name: 'sneaky' } });
    expect(create.status).toBe(403);
    expect(create.body.error.code).toBe('agent_forbidden');
  });

  it('gets 403 on the key-minting route, for its own agent too', async () => {
    const res = await api.post(`/v1/agents/${agentId}/api-keys`, { token: agentKey, body: { name: 'child' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('agent_forbidden');
  });

  it('gets 403 agent_forbidden on every account route of the router, and on other agents for per-agent routes', async () => {
    const { api: router } = createApp(t.deps);
    const checked: string[] = [];
    for (const [route, access] of router.declarations) {
      if (access.kind === 'public') continue;
      const [method, path] = route.split(' ') as [string, string];
      const opensToAgent = (access.kind === 'scope' && access.agentScope) || access.kind === 'agentKey';
      const agentParam =
        access.kind === 'scope' ? access.agentParam : access.kind === 'agentKey' ? access.param : undefined;
      // Account routes: even this key's own agent id in every parameter does not open them.
      // Per-agent routes: the agent parameter names another agent of the same account.
      const url = path.replace(/:(\w+)/g, (_, name: string) =>
        opensToAgent && name === agentParam ? otherAgentId : agentId,
      );
      const hasBody = method !== 'GET' && method !== 'DELETE';
      const res = await api[method.toLowerCase() as 'get'](url, { token: agentKey, ...(hasBody ? { body: {} } : {}) });
      expect({ route, status: res.status, code: res.body?.error?.code }).toEqual({
        route,
        status: 403,
        code: 'agent_forbidden',
      });
      checked.push(route);
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'GET /v1/api_keys',
        'POST /v1/api_keys',
        'GET /v1/billing',
        'GET /v1/logs',
        'POST /v1/mcp',
        'GET /v1/agents',
      ]),
    );
  });

  it('cannot be widened by the body: another agent, keyType account, account scopes, * or write:api_keys', async () => {
    const before = await t.deps.db('api_keys').count<{ count: number }[]>({ count: '*' });
    const attempts: Array<[Record<string, unknown>, number, string]> = [
      [{ agentId: otherAgentId }, 400, 'validation_error'],
      [{ agentId: foreignAgentId }, 400, 'validation_error'],
      [{ keyType: 'account' }, 400, 'validation_error'],
      [{ scopes: ['read:agents'] }, 400, 'invalid_scope'],
      [{ scopes: ['agent:config:read', 'write:agents'] }, 400, 'invalid_scope'],
      [{ scopes: ['*'] }, 400, 'invalid_scope'],
      [{ scopes: ['write:api_keys'] }, 400, 'invalid_scope'],
      [{ scopes: ['agent:*'] }, 400, 'invalid_scope'],
    ];
    for (const [extra, status, code] of attempts) {
      const res = await api.post(`/v1/agents/${agentId}/api-keys`, {
        token: owner.token,
        body: { name: 'wide', ...extra },
      });
      expect({ extra, status: res.status, code: res.body.error?.code }).toEqual({ extra, status, code });
    }
    const after = await t.deps.db('api_keys').count<{ count: number }[]>({ count: '*' });
    expect(after[0]!.count).toBe(before[0]!.count);

    const same = await createAgentKey(api, owner.token, agentId, { agentId, keyType: 'agent' });
    expect(same.body).toMatchObject({ keyType: 'agent', agentId });
  });

  it('account key bodies cannot name an agent or another key type, nor take agent or never-grantable scopes', async () => {
    for (const [body, code] of [
      [{ keyType: 'agent' }, 'validation_error'],
      [{ agentId }, 'validation_error'],
      [{ scopes: ['agent:trigger'] }, 'invalid_scope'],
      [{ scopes: ['*'] }, 'invalid_scope'],
      [{ scopes: ['write:billing'] }, 'invalid_scope'],
      [{ scopes: ['write:api_keys'] }, 'invalid_scope'],
      [{ scopes: ['read:everything'] }, 'invalid_scope'],
    ] as const) {
      const res = await api.post('/v1/api_keys', { token: owner.token, body: { name: 'x', ...body } });
      expect({ body, status: res.status, code: res.body.error?.code }).toEqual({ body, status: 400, code });
    }
  });
});
