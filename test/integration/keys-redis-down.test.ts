import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey } from '../helpers/keys.js';

// The key cache is only trusted while Redis can vouch for it. With Redis gone, keys are checked against
// Postgres, and a lifecycle change (which must invalidate every instance's cache) is refused whole.
describe('API keys while Redis is unreachable', () => {
  let t: TestContext;
  let api: Client;
  let owner: Awaited<ReturnType<typeof signupAccount>>;
  let key: Awaited<ReturnType<typeof createAccountKey>>;

  beforeAll(async () => {
    t = await createTestContext();
    api = client(t.url);
    owner = await signupAccount(api);
    key = await createAccountKey(api, owner.token, { scopes: ['read:agents'] });
    expect((await api.get('/v1/agents', { token: key.key })).status).toBe(200); // now cached on this instance
    t.deps.redis.disconnect();
  });
  afterAll(() => t.close());

  it('still authenticates keys, against Postgres', async () => {
    const res = await api.get('/v1/agents', { token: key.key });
    expect(res.status).toBe(200);
    const wrong = await api.get('/v1/agents', { token: key.key.slice(0, -7) + 'AAAAAAA' });
    expect(wrong.status).toBe(401);
  });

  it('refuses a deactivation with 503 and changes nothing, so no instance can keep a stale copy', async () => {
    const res = await api.post(`/v1/api_keys/${key.id}/deactivate`, { token: owner.token });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('unavailable');
    const row = await t.deps.db('api_keys').where({ id: key.id }).first();
    expect(row.status).toBe('active');
    expect(await t.deps.db('audit_log').where({ target_id: key.id, action: 'api_key.deactivated' })).toHaveLength(0);
  });

  it('sees a change made directly in Postgres at once, since no cache is trusted without Redis', async () => {
    await t.deps.db('api_keys').where({ id: key.id }).update({ status: 'deactivated' });
    const res = await api.get('/v1/agents', { token: key.key });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('key_deactivated');
  });
});
