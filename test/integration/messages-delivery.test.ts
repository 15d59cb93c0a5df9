import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverQueuedMessage } from '../../src/messages/delivery.service.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';

// The send worker's work, driven directly (no BullMQ timing): refusals are retried, the last attempt fails
// the message; without any SMTP configured the log transport accepts it.

let t: TestContext;
let api: Client;
let refusing: SmtpSink;

async function queuedMessage(token: string, inboxId: string) {
  const msg = (
    await api.post('/v1/messages', { token, body: { inboxId, to: 'x@example.com', subject: 's', text: 'body' } })
  ).body;
  expect((await api.post(`/v1/messages/${msg.id}/send`, { token })).status).toBe(202);
  return msg.id as string;
}

async function accountWithInbox() {
  const owner = await signupAccount(api);
  const agentId = (await api.post('/v1/agents', { token: owner.token, body: { name: 'D' } })).body.id;
  const inbox = (
    await api.post('/v1/inboxes', {
      token: owner.token,
      body: { agentId, channel: 'email', address: 'd@agents.example.com' },
    })
  ).body;
  return { owner, inbox };
}

beforeAll(async () => {
  refusing = await startSmtpSink({ rejectAll: true });
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }); // no SMTP_URL: the log transport
  api = client(t.url);
});
afterAll(async () => {
  await t.close();
  await refusing.close();
});

describe('message delivery', () => {
  it('sends through the log transport when no SMTP is configured, once', async () => {
    const { owner, inbox } = await accountWithInbox();
    const id = await queuedMessage(owner.token, inbox.id);
    expect(await deliverQueuedMessage(t.deps, id, { last: false })).toBe('sent');
    expect(await deliverQueuedMessage(t.deps, id, { last: false })).toBe('skipped');
    expect((await api.get(`/v1/messages/${id}`, { token: owner.token })).body.status).toBe('sent');
    expect(await t.deps.db('events').where({ message_id: id, type: 'message.sent' })).toHaveLength(1);
  });

  it('throws for a retry while the SMTP server refuses, and fails the message on the last attempt', async () => {
    const { owner, inbox } = await accountWithInbox();
    const port = Number(new URL(refusing.url).port);
    expect(
      (
        await api.post('/v1/integrations/smtp', {
          token: owner.token,
          body: { host: '127.0.0.1', port, secure: false, from: 'relay@example.com' },
        })
      ).status,
    ).toBe(201);
    const id = await queuedMessage(owner.token, inbox.id);
    await expect(deliverQueuedMessage(t.deps, id, { last: false })).rejects.toThrow();
    expect((await api.get(`/v1/messages/${id}`, { token: owner.token })).body.status).toBe('queued');
    await expect(deliverQueuedMessage(t.deps, id, { last: true })).rejects.toThrow();
    const failed = (await api.get(`/v1/messages/${id}`, { token: owner.token })).body;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/550|mailbox unavailable/);
    expect(refusing.connections()).toBe(2);
    expect(await t.deps.db('events').where({ message_id: id, type: 'message.sent' })).toHaveLength(0);
    const activity = await api.get('/v1/activity', { token: owner.token });
    expect(activity.body.data[0]).toMatchObject({ kind: 'message.failed', subject: { type: 'message', id } });
    expect(await deliverQueuedMessage(t.deps, id, { last: true })).toBe('skipped');
  });

  it('never dials an internal address for an account smtp integration (checked on the address dialled)', async () => {
    const strict = await createTestContext(); // private targets not allowed
    try {
      const sapi = client(strict.url);
      const owner = await signupAccount(sapi);
      const agentId = (await sapi.post('/v1/agents', { token: owner.token, body: { name: 'S' } })).body.id;
      const inbox = (
        await sapi.post('/v1/inboxes', {
          token: owner.token,
          body: { agentId, channel: 'email', address: 's@agents.example.com' },
        })
      ).body;
      const connected = await sapi.post('/v1/integrations/smtp', {
        token: owner.token,
        body: { host: 'smtp.example.com', port: 25, from: 'relay@example.com' },
      });
      expect(connected.status).toBe(201);
      // As if the provider's name now pointed inside (or the row was tampered with): the sender refuses to dial it.
      const port = Number(new URL(refusing.url).port);
      await strict.deps
        .db('integrations')
        .where({ account_id: owner.accountId, provider: 'smtp' })
        .update({ settings: JSON.stringify({ host: '127.0.0.1', port, secure: false, from: 'relay@example.com' }) });
      const msg = (
        await sapi.post('/v1/messages', {
          token: owner.token,
          body: { inboxId: inbox.id, to: 'x@example.com', text: 'x' },
        })
      ).body;
      expect((await sapi.post(`/v1/messages/${msg.id}/send`, { token: owner.token })).status).toBe(202);
      const before = refusing.connections();
      await expect(deliverQueuedMessage(strict.deps, msg.id, { last: true })).rejects.toThrow(/127\.0\.0\.1|loopback/);
      expect((await sapi.get(`/v1/messages/${msg.id}`, { token: owner.token })).body.status).toBe('failed');
      expect(refusing.connections()).toBe(before);
    } finally {
      await strict.close();
    }
  });
});
