import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentId: string;

const count = async (table: string, where: Record<string, unknown> = {}) =>
  Number((await t.deps.db(table).where(where).count<{ count: number }[]>({ count: '*' }))[0]!.count);

async function newInbox(body: Record<string, unknown> = {}) {
  const res = await api.post('/v1/inboxes', {
    token: owner.token,
    body: {
      agentId,
      channel: 'email',
      address: `in-${Math.random().toString(36).slice(2, 8)}@agents.example.com`,
      ...body,
    },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; ingestToken: string; address: string };
}

const inbound = (inboxId: string, token: string | undefined, body: unknown) =>
  api.post(`/v1/inbound/${inboxId}`, { body, headers: token ? { 'x-inbound-token': token } : {} });

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  agentId = (await api.post('/v1/agents', { token: owner.token, body: { name: 'Support' } })).body.id;
});
afterAll(() => t.close());

describe('inboxes', () => {
  it('creates an inbox whose ingest token is shown once and stored only as a hash', async () => {
    const res = await api.post('/v1/inboxes', {
      token: owner.token,
      body: { agentId, channel: 'email', address: 'Help@Agents.Example.com', name: 'Help' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      agentId,
      channel: 'email',
      address: 'help@agents.example.com',
      name: 'Help',
      status: 'active',
    });
    expect(res.body.id).toMatch(/^inb_/);
    expect(res.body.ingestToken).toMatch(/^sb_ingest_[0-9A-Za-z]{40}$/);
    const read = await api.get(`/v1/inboxes/${res.body.id}`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('ingestToken');
    const list = await api.get('/v1/inboxes', { token: owner.token });
    expect(JSON.stringify(list.body)).not.toContain(res.body.ingestToken);
    const rows = await t.deps.db('inboxes').where({ id: res.body.id });
    expect(JSON.stringify(rows)).not.toContain(res.body.ingestToken);
    const [event] = await t.deps.db('events').where({ type: 'inbox.created', inbox_id: res.body.id });
    expect(event.payload).toMatchObject({ id: res.body.id, address: 'help@agents.example.com' });
    expect(JSON.stringify(event.payload)).not.toContain(res.body.ingestToken);
  });

  it('validates the address per channel and answers 404 for an unknown agent, writing no event', async () => {
    const before = await count('events', { account_id: owner.accountId });
    const bad = [
      { agentId, channel: 'sms', address: 'not-a-number' },
      { agentId, channel: 'email', address: '+14155550123' },
      { agentId, channel: 'fax', address: 'x@example.com' },
      { agentId, channel: 'email' },
      { agentId, channel: 'email', address: 'a@example.com', extra: true },
    ];
    for (const body of bad) {
      const res = await api.post('/v1/inboxes', { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
    const unknown = await api.post('/v1/inboxes', {
      token: owner.token,
      body: { agentId: 'agt_nope', channel: 'email', address: 'a@example.com' },
    });
    expect(unknown.status).toBe(404);
    const sms = await api.post('/v1/inboxes', {
      token: owner.token,
      body: { agentId, channel: 'sms', address: '+14155550100' },
    });
    expect(sms.status).toBe(201);
    expect(await count('events', { account_id: owner.accountId })).toBe(before + 1);
  });

  it('updates (no event: inbox.updated is planned) and soft-deletes (inbox.deleted, once); a deleted inbox is gone from the API', async () => {
    const inbox = await newInbox();
    const patched = await api.patch(`/v1/inboxes/${inbox.id}`, {
      token: owner.token,
      body: { name: 'Renamed', address: 'renamed@agents.example.com' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Renamed', address: 'renamed@agents.example.com' });
    expect(
      (await api.patch(`/v1/inboxes/${inbox.id}`, { token: owner.token, body: { address: '+1415' } })).status,
    ).toBe(400);
    expect(await count('events', { inbox_id: inbox.id, type: 'inbox.updated' })).toBe(0);

    expect((await api.delete(`/v1/inboxes/${inbox.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.delete(`/v1/inboxes/${inbox.id}`, { token: owner.token })).status).toBe(404);
    expect(await count('events', { type: 'inbox.deleted', inbox_id: inbox.id })).toBe(1);
    expect((await api.get(`/v1/inboxes/${inbox.id}`, { token: owner.token })).status).toBe(404);
    expect((await api.patch(`/v1/inboxes/${inbox.id}`, { token: owner.token, body: { name: 'x' } })).status).toBe(404);
    const list = await api.get('/v1/inboxes', { token: owner.token });
    expect(list.body.data.map((i: { id: string }) => i.id)).not.toContain(inbox.id);
    expect(await count('inboxes', { id: inbox.id })).toBe(1);
  });
});

describe('inbound', () => {
  it('stores a message with the right token, creates the contact once and emits message.received', async () => {
    const inbox = await newInbox();
    const first = await inbound(inbox.id, inbox.ingestToken, {
      from: 'Jane@Example.com',
      subject: 'Hi',
      text: 'Hello there',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      direction: 'inbound',
      channel: 'email',
      status: 'received',
      from: 'jane@example.com',
      to: inbox.address,
      subject: 'Hi',
      text: 'Hello there',
      agentId,
      inboxId: inbox.id,
    });
    const contactId = first.body.contactId;
    expect(contactId).toMatch(/^ct_/);
    const second = await inbound(inbox.id, inbox.ingestToken, { from: 'jane@example.com', text: 'Again' });
    expect(second.body.contactId).toBe(contactId);
    expect(second.body.conversationId).toBe(first.body.conversationId);

    expect(await count('events', { type: 'contact.created', account_id: owner.accountId })).toBeGreaterThanOrEqual(1);
    const created = await t.deps
      .db('events')
      .where({ type: 'contact.created' })
      .whereRaw(`payload->>'id' = ?`, [contactId]);
    expect(created).toHaveLength(1);
    const received = await t.deps
      .db('events')
      .where({ type: 'message.received', inbox_id: inbox.id })
      .orderBy('created_at');
    expect(received.map((e) => e.message_id)).toEqual([first.body.id, second.body.id]);
    expect(received[0].payload).toMatchObject({ id: first.body.id, text: 'Hello there' });

    const contacts = await api.get(`/v1/agents/${agentId}/contacts`, { token: owner.token });
    expect(contacts.body.data.map((c: { id: string }) => c.id)).toContain(contactId);
    const conversations = await api.get(`/v1/agents/${agentId}/conversations`, { token: owner.token });
    const conv = conversations.body.data.find((c: { id: string }) => c.id === first.body.conversationId);
    expect(conv.recentMessages.map((m: { text: string }) => m.text)).toEqual(['Hello there', 'Again']);
  });

  it("refuses a wrong, missing or other inbox's token with 401 and stores nothing", async () => {
    const inbox = await newInbox();
    const other = await newInbox();
    const before = {
      messages: await count('messages'),
      contacts: await count('contacts'),
      events: await count('events'),
    };
    for (const token of [undefined, 'sb_ingest_wrong', other.ingestToken, inbox.ingestToken + 'x']) {
      const res = await inbound(inbox.id, token, { from: 'mallory@example.com', text: 'let me in' });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('invalid_credential');
    }
    // A wrong token with a bad body still answers 401: the body is not even looked at.
    expect((await inbound(inbox.id, 'nope', { bogus: true })).status).toBe(401);
    expect((await inbound('inb_unknown', inbox.ingestToken, { from: 'a@example.com', text: 'x' })).status).toBe(401);
    expect({
      messages: await count('messages'),
      contacts: await count('contacts'),
      events: await count('events'),
    }).toEqual(before);
  });

  it('refuses oversize bodies, bad senders and a deleted inbox, storing nothing', async () => {
    const inbox = await newInbox();
    const before = await count('messages');
    const big = await inbound(inbox.id, inbox.ingestToken, { from: 'a@example.com', text: 'x'.repeat(100_001) });
    expect(big.status).toBe(400);
    expect(big.body.error.details.fields[0].field).toBe('text');
    expect((await inbound(inbox.id, inbox.ingestToken, { from: 'not an address', text: 'x' })).status).toBe(400);
    expect((await inbound(inbox.id, inbox.ingestToken, { from: 'a@example.com', text: '' })).status).toBe(400);
    expect(
      (await inbound(inbox.id, inbox.ingestToken, { from: 'a@example.com', text: 'x', cc: 'b@example.com' })).status,
    ).toBe(400);
    await api.delete(`/v1/inboxes/${inbox.id}`, { token: owner.token });
    const gone = await inbound(inbox.id, inbox.ingestToken, { from: 'a@example.com', text: 'late' });
    expect(gone.status).toBe(409);
    expect(gone.body.error.code).toBe('inbox_deleted');
    expect(await count('messages')).toBe(before);
  });

  it('links SMS senders by phone number', async () => {
    const sms = await api.post('/v1/inboxes', {
      token: owner.token,
      body: { agentId, channel: 'sms', address: '+14155550111' },
    });
    const res = await inbound(sms.body.id, sms.body.ingestToken, { from: '+14155550199', text: 'sms hello' });
    expect(res.status).toBe(201);
    const contact = await api.get(`/v1/contacts/${res.body.contactId}`, { token: owner.token });
    expect(contact.body).toMatchObject({ phone: '+14155550199', email: null, agentId });
    expect((await inbound(sms.body.id, sms.body.ingestToken, { from: 'a@example.com', text: 'x' })).status).toBe(400);
  });
});
