import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, createAgentKey } from '../helpers/keys.js';

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
});
afterAll(() => t.close());

describe('account keys', () => {
  it('creates a key with default scopes, shows the secret once and stores only its hash', async () => {
    const { id, key, body } = await createAccountKey(api, owner.token);
    expect(key).toMatch(/^ca_acct_[0-9A-Za-z]{38}$/);
    expect(body).toMatchObject({ id, name: 'test key', keyType: 'account', keyPrefix: 'ca_acct_', agentId: null, status: 'active', scopes: ['read:agents', 'read:contacts', 'read:account'], spentCredits: 0 });
    const row = await t.deps.db('api_keys').where({ id }).first();
    expect(JSON.stringify(row)).not.toContain(key);
    const me = await api.get('/v1/account', { token: key });
    expect(me.status).toBe(200);
    const list = await api.get('/v1/api_keys', { token: owner.token });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(JSON.stringify(list.body)).not.toContain(row.secret_hash);
  });

  it('mints a per-agent key bound to the path agent', async () => {
    const agentId = await createAgent(t, owner.accountId);
    const { key, body } = await createAgentKey(api, owner.token, agentId);
    expect(key).toMatch(/^ca_agt_[0-9A-Za-z]{38}$/);
    expect(body).toMatchObject({ keyType: 'agent', agentId, keyPrefix: 'ca_agt_', scopes: ['agent:config:read', 'agent:conversations:read', 'agent:activity:read'] });
    const res = await api.get('/v1/api_keys', { token: key });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('agent_forbidden');
  });
});
