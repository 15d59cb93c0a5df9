import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgentKey } from '../helpers/keys.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

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

/** A conversation with messages, written straight to the tables (the message routes are tested elsewhere). */
async function insertConversation(
  accountId: string,
  agentId: string,
  messages: Array<{ direction: string; status: string }>,
) {
  const conversationId = newId('conv');
  await t.deps.db('conversations').insert({
    id: conversationId,
    account_id: accountId,
    agent_id: agentId,
    channel: 'email',
    thread_key: `t-${conversationId}`,
  });
  for (const m of messages) {
    await t.deps.db('messages').insert({
      id: newId('msg'),
      account_id: accountId,
      agent_id: agentId,
      conversation_id: conversationId,
      channel: 'email',
      text: 'hi',
      ...m,
    });
  }
}

describe('GET /v1/stats', () => {
  it('answers zeros with a stable shape for a new account', async () => {
    const res = await api.get('/v1/stats', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      agents: { total: 0, byStatus: { active: 0, paused: 0 } },
      contacts: { total: 0 },
      inboxes: { total: 0, byChannel: { email: 0, sms: 0 } },
      messages: {
        total: 0,
        byDirection: { inbound: 0, outbound: 0 },
        byStatus: { received: 0, draft: 0, queued: 0, sent: 0, failed: 0 },
      },
      runs: { total: 0 },
      webhooks: { total: 0 },
      apiKeys: { total: 0, byStatus: { active: 0, deactivated: 0, expired: 0 } },
      domains: { total: 0 },
      integrations: { total: 0 },
    });
    expect(Date.parse(res.body.generatedAt)).not.toBeNaN();
  });

  it('changes as the account creates things, and counts only this account', async () => {
    const a1 = await api.post('/v1/agents', { token: owner.token, body: { name: 'Support' } });
    expect(a1.status).toBe(201);
    const a2 = await api.post('/v1/agents', { token: owner.token, body: { name: 'Sales' } });
    await api.patch(`/v1/agents/${a2.body.id}`, { token: owner.token, body: { status: 'paused' } });
    await createAccountKey(api, owner.token);
    await createAgentKey(api, owner.token, a1.body.id);
    await api.post('/v1/domains', { token: owner.token, body: { name: 'stats.acme.example' } });
    await api.post('/v1/integrations/smtp', {
      token: owner.token,
      body: { host: 'smtp.acme.example', port: 587, from: 'a@acme.example' },
    });
    await t.deps.db('contacts').insert([
      { id: newId('ct'), account_id: owner.accountId, email: 'c1@example.com' },
      { id: newId('ct'), account_id: owner.accountId, email: 'c2@example.com' },
    ]);
    await t.deps.db('inboxes').insert([
      {
        id: newId('inb'),
        account_id: owner.accountId,
        agent_id: a1.body.id,
        channel: 'email',
        address: 'a@acme.example',
        ingest_token_hash: newId('key'),
      },
      {
        id: newId('inb'),
        account_id: owner.accountId,
        agent_id: a1.body.id,
        channel: 'sms',
        address: '+15550001',
        ingest_token_hash: newId('key'),
        deleted_at: new Date(),
      },
    ]);
    await insertConversation(owner.accountId, a1.body.id, [
      { direction: 'inbound', status: 'received' },
      { direction: 'inbound', status: 'received' },
      { direction: 'outbound', status: 'draft' },
      { direction: 'outbound', status: 'sent' },
    ]);
    // Noise in another account.
    const otherAgent = await api.post('/v1/agents', { token: other.token, body: { name: 'Theirs' } });
    await insertConversation(other.accountId, otherAgent.body.id, [{ direction: 'inbound', status: 'received' }]);

    const res = await api.get('/v1/stats', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      agents: { total: 2, byStatus: { active: 1, paused: 1 } },
      contacts: { total: 2 },
      // The deleted inbox is not counted.
      inboxes: { total: 1, byChannel: { email: 1, sms: 0 } },
      conversations: { total: 1 },
      messages: {
        total: 4,
        byDirection: { inbound: 2, outbound: 2 },
        byStatus: { received: 2, draft: 1, queued: 0, sent: 1, failed: 0 },
      },
      apiKeys: { total: 2, byStatus: { active: 2 }, byType: { account: 1, agent: 1 } },
      domains: { total: 1, byStatus: { pending: 1, verified: 0 } },
      integrations: { total: 1, byProvider: { smtp: 1, 'sms-http': 0 } },
    });

    const theirs = await api.get('/v1/stats', { token: other.token });
    expect(theirs.body).toMatchObject({
      agents: { total: 1 },
      messages: { total: 1 },
      contacts: { total: 0 },
      apiKeys: { total: 0 },
    });
  });

  it('is read:account: a member session and a default account key read it; a key without the scope gets 403', async () => {
    const email = `member-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await api.post('/v1/team/members', {
      token: owner.token,
      body: { email, password: 'member password 1', role: 'member' },
    });
    const member = (await api.post('/v1/auth/login', { body: { email, password: 'member password 1' } })).body.session
      .token;
    expect((await api.get('/v1/stats', { token: member })).status).toBe(200);

    const defaultKey = await createAccountKey(api, owner.token);
    expect((await api.get('/v1/stats', { token: defaultKey.key })).status).toBe(200);

    const narrow = await createAccountKey(api, owner.token, { scopes: ['read:agents'] });
    const denied = await api.get('/v1/stats', { token: narrow.key });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'insufficient_scope', details: { requiredScope: 'read:account' } });

    const agentId = (await api.get('/v1/agents', { token: owner.token })).body.data[0].id;
    const agentKey = await createAgentKey(api, owner.token, agentId);
    const forbidden = await api.get('/v1/stats', { token: agentKey.key });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('agent_forbidden');
    expect((await api.get('/v1/stats')).status).toBe(401);
  });
});
