import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey } from '../helpers/keys.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { waitFor } from '../helpers/wait.js';

let t: TestContext;
let api: Client;
let platformSmtp: SmtpSink;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentId: string;
let inbox: { id: string; address: string; ingestToken: string };

const balance = async (accountId: string) =>
  Number((await t.deps.db('accounts').where({ id: accountId }).first()).credits_balance);

async function waitForStatus(messageId: string, token: string, status: string, timeoutMs = 8000) {
  const res = await waitFor(
    () => api.get(`/v1/messages/${messageId}`, { token }),
    (r) => r.body.status === status,
    { timeoutMs, what: `message ${messageId} to be ${status}` },
  );
  return res.body;
}

async function draft(token: string, body: Record<string, unknown> = {}) {
  return api.post('/v1/messages', {
    token,
    body: { inboxId: inbox.id, to: 'customer@example.com', subject: 'Your order', text: 'It shipped.', ...body },
  });
}

beforeAll(async () => {
  platformSmtp = await startSmtpSink();
  t = await createTestContext({ SMTP_URL: platformSmtp.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  api = client(t.url);
  await t.startWorkers();
  owner = await signupAccount(api);
  agentId = (await api.post('/v1/agents', { token: owner.token, body: { name: 'Sales' } })).body.id;
  inbox = (
    await api.post('/v1/inboxes', {
      token: owner.token,
      body: { agentId, channel: 'email', address: 'sales@agents.example.com' },
    })
  ).body;
});
afterAll(async () => {
  await t.close();
  await platformSmtp.close();
});

describe('drafts', () => {
  it('creates a draft (message.drafted), links the recipient as a contact and lists it', async () => {
    const res = await draft(owner.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'draft',
      direction: 'outbound',
      channel: 'email',
      from: 'sales@agents.example.com',
      to: 'customer@example.com',
      agentId,
      inboxId: inbox.id,
    });
    const events = await t.deps.db('events').where({ message_id: res.body.id });
    expect(events.map((e) => e.type)).toEqual(['message.drafted']);
    expect(events[0].inbox_id).toBe(inbox.id);
    for (const path of ['/v1/drafts', `/v1/agents/${agentId}/drafts`, '/v1/messages?status=draft']) {
      const list = await api.get(path, { token: owner.token });
      expect(list.status, path).toBe(200);
      expect(
        list.body.data.map((m: { id: string }) => m.id),
        path,
      ).toContain(res.body.id);
    }
    const conversations = await api.get('/v1/conversations', { token: owner.token });
    expect(conversations.body.data.some((c: { id: string }) => c.id === res.body.conversationId)).toBe(true);
  });

  it('rejects bad drafts: unknown inbox 404, bad recipient, oversize or extra fields 400; nothing stored', async () => {
    const before = await t.deps.db('messages').count<{ count: number }[]>({ count: '*' });
    expect((await draft(owner.token, { inboxId: 'inb_nope' })).status).toBe(404);
    expect((await draft(owner.token, { to: '+14155550123' })).status).toBe(400);
    expect((await draft(owner.token, { text: 'x'.repeat(100_001) })).status).toBe(400);
    expect((await draft(owner.token, { bcc: 'x@example.com' })).status).toBe(400);
    expect((await draft(owner.token, { subject: 'two\nlines' })).status).toBe(400);
    expect((await api.get('/v1/messages?status=bogus', { token: owner.token })).status).toBe(400);
    const after = await t.deps.db('messages').count<{ count: number }[]>({ count: '*' });
    expect(after[0]!.count).toBe(before[0]!.count);
  });
});

describe('sending', () => {
  it('sends a draft once through the platform SMTP server: 1 credit, queued → sent, message.sent once', async () => {
    const { body: msg } = await draft(owner.token, { subject: 'Hello from Sales', text: 'Real mail body' });
    const startBalance = await balance(owner.accountId);
    const [first, second] = await Promise.all([
      api.post(`/v1/messages/${msg.id}/send`, { token: owner.token }),
      api.post(`/v1/messages/${msg.id}/send`, { token: owner.token }),
    ]);
    expect([first.status, second.status].sort()).toEqual([202, 409]);
    const accepted = first.status === 202 ? first : second;
    expect(accepted.body.status).toBe('queued');
    expect((first.status === 409 ? first : second).body.error.code).toBe('conflict');
    expect(await balance(owner.accountId)).toBe(startBalance - 1);

    const sent = await waitForStatus(msg.id, owner.token, 'sent');
    expect(sent.sentAt).not.toBeNull();
    const mails = await platformSmtp.waitFor(1);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['customer@example.com']);
    expect(mails[0]!.from).toBe('sales@agents.example.com');
    expect(mails[0]!.raw).toContain('Subject: Hello from Sales');
    expect(mails[0]!.raw).toContain('Real mail body');
    expect(mails[0]!.raw).toContain(`Message-ID: <${msg.id}@switchboard>`);
    const events = await t.deps.db('events').where({ message_id: msg.id }).orderBy('created_at');
    expect(events.map((e) => e.type)).toEqual(['message.drafted', 'message.sent']);
    expect(events[1].payload).toMatchObject({ id: msg.id, status: 'sent' });

    const again = await api.post(`/v1/messages/${msg.id}/send`, { token: owner.token });
    expect(again.status).toBe(409);
    // A later message is the sentinel: once its mail has arrived, a second mail of the first would have too.
    const { body: sentinel } = await draft(owner.token, { subject: 'Sentinel' });
    expect((await api.post(`/v1/messages/${sentinel.id}/send`, { token: owner.token })).status).toBe(202);
    const all = await platformSmtp.waitFor(2);
    expect(all.filter((m) => m.raw.includes(`Message-ID: <${msg.id}@switchboard>`))).toHaveLength(1);
    expect(all.filter((m) => m.raw.includes(`Message-ID: <${sentinel.id}@switchboard>`))).toHaveLength(1);
    expect(await balance(owner.accountId)).toBe(startBalance - 2);
    const activity = await api.get(`/v1/agents/${agentId}/activity`, { token: owner.token });
    expect(activity.body.data.map((a: { kind: string }) => a.kind)).toEqual(
      expect.arrayContaining(['message.drafted', 'message.queued', 'message.sent']),
    );
  });

  it("sends through the account's smtp integration when connected", async () => {
    const own = await startSmtpSink();
    try {
      const acct = await signupAccount(api, 'Integrated');
      const agent = (await api.post('/v1/agents', { token: acct.token, body: { name: 'A' } })).body.id;
      const box = (
        await api.post('/v1/inboxes', {
          token: acct.token,
          body: { agentId: agent, channel: 'email', address: 'me@own.example.com' },
        })
      ).body;
      const port = Number(new URL(own.url).port);
      const connected = await api.post('/v1/integrations/smtp', {
        token: acct.token,
        body: { host: '127.0.0.1', port, secure: false, from: 'relay@own.example.com' },
      });
      expect(connected.status, JSON.stringify(connected.body)).toBe(201);
      const msg = (
        await api.post('/v1/messages', {
          token: acct.token,
          body: { inboxId: box.id, to: 'x@example.com', subject: 'via integration', text: 'hi' },
        })
      ).body;
      expect((await api.post(`/v1/messages/${msg.id}/send`, { token: acct.token })).status).toBe(202);
      await waitForStatus(msg.id, acct.token, 'sent');
      const [mail] = await own.waitFor(1);
      expect(mail!.from).toBe('relay@own.example.com');
      expect(mail!.raw).toContain('Reply-To: me@own.example.com');
      expect(platformSmtp.received.some((m) => m.raw.includes('via integration'))).toBe(false);
    } finally {
      await own.close();
    }
  });

  it('sends SMS through the sms-http integration (2 credits) as a JSON POST', async () => {
    const provider: Receiver = await startReceiver(() => ({ status: 202, body: '{"ok":true}' }));
    try {
      const acct = await signupAccount(api, 'Sms');
      const agent = (await api.post('/v1/agents', { token: acct.token, body: { name: 'A' } })).body.id;
      const box = (
        await api.post('/v1/inboxes', {
          token: acct.token,
          body: { agentId: agent, channel: 'sms', address: '+14155550100' },
        })
      ).body;
      const connected = await api.post('/v1/integrations/sms-http', {
        token: acct.token,
        body: { url: `${provider.url}/sms`, headers: { 'x-api-key': 'provider-secret' }, from: '+14155550100' },
      });
      expect(connected.status, JSON.stringify(connected.body)).toBe(201);
      const msg = (
        await api.post('/v1/messages', {
          token: acct.token,
          body: { inboxId: box.id, to: '+14155550199', text: 'Your code is 1234' },
        })
      ).body;
      const start = await balance(acct.accountId);
      expect((await api.post(`/v1/messages/${msg.id}/send`, { token: acct.token })).status).toBe(202);
      expect(await balance(acct.accountId)).toBe(start - 2);
      await waitForStatus(msg.id, acct.token, 'sent');
      const [req] = await provider.waitFor(1);
      expect(req!.path).toBe('/sms');
      expect(req!.headers['x-api-key']).toBe('provider-secret');
      expect(req!.body).toMatchObject({
        from: '+14155550100',
        to: '+14155550199',
        text: 'Your code is 1234',
        messageId: msg.id,
      });
    } finally {
      await provider.close();
    }
  });

  it('refuses to send from a deleted inbox (409 inbox_deleted), charging nothing', async () => {
    const box = (
      await api.post('/v1/inboxes', {
        token: owner.token,
        body: { agentId, channel: 'email', address: 'temp@agents.example.com' },
      })
    ).body;
    const msg = (
      await api.post('/v1/messages', { token: owner.token, body: { inboxId: box.id, to: 'y@example.com', text: 'x' } })
    ).body;
    await api.delete(`/v1/inboxes/${box.id}`, { token: owner.token });
    const start = await balance(owner.accountId);
    const res = await api.post(`/v1/messages/${msg.id}/send`, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('inbox_deleted');
    expect(await balance(owner.accountId)).toBe(start);
    expect((await api.get(`/v1/messages/${msg.id}`, { token: owner.token })).body.status).toBe('draft');
    const newDraft = await api.post('/v1/messages', {
      token: owner.token,
      body: { inboxId: box.id, to: 'y@example.com', text: 'x' },
    });
    expect(newDraft.status).toBe(409);
    expect(newDraft.body.error.code).toBe('inbox_deleted');
  });

  it('needs messages:send; a spend cap or an empty balance refuses with 402 and leaves the draft unsent', async () => {
    const { body: msg } = await draft(owner.token);
    const writer = await createAccountKey(api, owner.token, { scopes: ['write:messages', 'read:messages'] });
    const denied = await api.post(`/v1/messages/${msg.id}/send`, { token: writer.key });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('insufficient_scope');
    const capped = await createAccountKey(api, owner.token, { scopes: ['messages:send'], spendCapCredits: 0 });
    const over = await api.post(`/v1/messages/${msg.id}/send`, { token: capped.key });
    expect(over.status).toBe(402);
    expect(over.body.error.code).toBe('spend_cap_exceeded');
    await t.deps.db('accounts').where({ id: owner.accountId }).update({ credits_balance: 0 });
    const broke = await api.post(`/v1/messages/${msg.id}/send`, { token: owner.token });
    expect(broke.status).toBe(402);
    expect(broke.body.error.code).toBe('insufficient_credits');
    expect((await api.get(`/v1/messages/${msg.id}`, { token: owner.token })).body.status).toBe('draft');
    expect(await t.deps.db('events').where({ message_id: msg.id, type: 'message.sent' })).toHaveLength(0);
    await t.deps.db('accounts').where({ id: owner.accountId }).update({ credits_balance: 1000 });
    expect((await api.post('/v1/messages/msg_unknown/send', { token: owner.token })).status).toBe(404);
  });
});
