import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';

// Every action of the agent domain writes exactly its event into the outbox, in the same transaction:
// a failed action leaves no event behind.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;

async function eventsDuring(action: () => Promise<unknown>) {
  const before = await t.deps.db('events').where({ account_id: owner.accountId }).pluck('id');
  await action();
  return t.deps.db('events').where({ account_id: owner.accountId }).whereNotIn('id', before).orderBy('created_at');
}

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  await t.startWorkers();
});
afterAll(() => t.close());

describe('agent-domain events', () => {
  it('writes exactly one event per action, carrying inboxId, messageId and the serialized resource', async () => {
    const token = owner.token;
    let agentId = '';
    expect(
      await eventsDuring(async () => {
        agentId = (await api.post('/v1/agents', { token, body: { name: 'E' } })).body.id;
      }),
    ).toHaveLength(0);

    let agentBody: unknown;
    const [updated, ...restUpdated] = await eventsDuring(async () => {
      agentBody = (await api.patch(`/v1/agents/${agentId}`, { token, body: { config: { x: 1 } } })).body;
    });
    expect(restUpdated).toHaveLength(0);
    expect(updated).toMatchObject({ type: 'agent.updated', inbox_id: null, message_id: null, payload: agentBody });

    let inbox: { id: string; ingestToken: string } = { id: '', ingestToken: '' };
    const created = await eventsDuring(async () => {
      inbox = (
        await api.post('/v1/inboxes', { token, body: { agentId, channel: 'email', address: 'e@agents.example.com' } })
      ).body;
    });
    expect(created.map((e) => [e.type, e.inbox_id])).toEqual([['inbox.created', inbox.id]]);

    let received: { id: string; contactId: string } = { id: '', contactId: '' };
    const inboundEvents = await eventsDuring(async () => {
      received = (
        await api.post(`/v1/inbound/${inbox.id}`, {
          headers: { 'x-inbound-token': inbox.ingestToken },
          body: { from: 'new@example.com', text: 'hi' },
        })
      ).body;
    });
    expect(inboundEvents.map((e) => [e.type, e.inbox_id, e.message_id])).toEqual([
      ['contact.created', null, null],
      ['message.received', inbox.id, received.id],
    ]);
    expect(inboundEvents[0].payload.id).toBe(received.contactId);
    // A known sender creates no contact.
    const again = await eventsDuring(() =>
      api.post(`/v1/inbound/${inbox.id}`, {
        headers: { 'x-inbound-token': inbox.ingestToken },
        body: { from: 'new@example.com', text: 'again' },
      }),
    );
    expect(again.map((e) => e.type)).toEqual(['message.received']);

    const contactEvents = await eventsDuring(() =>
      api.patch(`/v1/contacts/${received.contactId}`, { token, body: { name: 'Newt' } }),
    );
    expect(contactEvents.map((e) => e.type)).toEqual(['contact.updated']);

    let draft: { id: string } = { id: '' };
    const drafted = await eventsDuring(async () => {
      draft = (
        await api.post('/v1/messages', { token, body: { inboxId: inbox.id, to: 'new@example.com', text: 'reply' } })
      ).body;
    });
    expect(drafted.map((e) => [e.type, e.inbox_id, e.message_id])).toEqual([['message.drafted', inbox.id, draft.id]]);

    // Queueing a send emits nothing; message.sent comes from the worker once the transport accepted it.
    const queued = await eventsDuring(() => api.post(`/v1/messages/${draft.id}/send`, { token }));
    expect(queued).toHaveLength(0);
    const sent = await waitFor(
      () => t.deps.db('events').where({ message_id: draft.id, type: 'message.sent' }),
      (rows) => rows.length > 0,
      { what: 'message.sent' },
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ inbox_id: inbox.id, payload: { id: draft.id, status: 'sent' } });

    const updatedInbox = await eventsDuring(() =>
      api.patch(`/v1/inboxes/${inbox.id}`, { token, body: { name: 'Renamed' } }),
    );
    // inbox.updated is planned, not yet produced (interface): an inbox edit emits nothing.
    expect(updatedInbox).toEqual([]);
    const deleted = await eventsDuring(() => api.delete(`/v1/inboxes/${inbox.id}`, { token }));
    expect(deleted.map((e) => [e.type, e.inbox_id])).toEqual([['inbox.deleted', inbox.id]]);
    expect(deleted[0].payload).toMatchObject({ id: inbox.id, status: 'deleted' });

    // Chat is not an email/SMS event: it writes a run and messages but no webhook event.
    expect(
      await eventsDuring(() => api.post(`/v1/agents/${agentId}/chat`, { token, body: { message: 'hi' } })),
    ).toHaveLength(0);
  });

  it('a failed action writes no event: a failure after the contact was created rolls back the contact and its event', async () => {
    const agentId = (await api.post('/v1/agents', { token: owner.token, body: { name: 'F' } })).body.id;
    const inbox = (
      await api.post('/v1/inboxes', {
        token: owner.token,
        body: { agentId, channel: 'email', address: 'f@agents.example.com' },
      })
    ).body;
    // Make the database refuse one specific message insert, after the contact (and contact.created) was written.
    await t.deps.db.raw(`
      CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.text = 'boom' THEN RAISE EXCEPTION 'refused by test'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_boom BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION refuse_boom();
    `);
    try {
      const events = await eventsDuring(async () => {
        const draftRes = await api.post('/v1/messages', {
          token: owner.token,
          body: { inboxId: inbox.id, to: 'fresh@example.com', text: 'boom' },
        });
        expect(draftRes.status).toBe(500);
        expect(JSON.stringify(draftRes.body)).not.toContain('refused by test');
        const inboundRes = await api.post(`/v1/inbound/${inbox.id}`, {
          headers: { 'x-inbound-token': inbox.ingestToken },
          body: { from: 'other@example.com', text: 'boom' },
        });
        expect(inboundRes.status).toBe(500);
      });
      expect(events).toHaveLength(0);
      expect(await t.deps.db('contacts').whereIn('email', ['fresh@example.com', 'other@example.com'])).toHaveLength(0);
      expect(await t.deps.db('conversations').where({ agent_id: agentId })).toHaveLength(0);
    } finally {
      await t.deps.db.raw('DROP TRIGGER refuse_boom ON messages; DROP FUNCTION refuse_boom()');
    }
  });

  it('a refused action (validation, 404, paused agent) writes no event', async () => {
    const agentId = (await api.post('/v1/agents', { token: owner.token, body: { name: 'G' } })).body.id;
    const events = await eventsDuring(async () => {
      await api.patch(`/v1/agents/${agentId}`, { token: owner.token, body: { config: 'nope' } });
      await api.post('/v1/contacts', { token: owner.token, body: { name: 'no address' } });
      await api.post('/v1/inboxes', {
        token: owner.token,
        body: { agentId: 'agt_missing', channel: 'email', address: 'x@example.com' },
      });
      await api.post('/v1/messages', {
        token: owner.token,
        body: { inboxId: 'inb_missing', to: 'x@example.com', text: 'x' },
      });
      await api.patch(`/v1/agents/${agentId}`, { token: owner.token, body: { status: 'paused' } });
    });
    expect(events.map((e) => e.type)).toEqual(['agent.updated']);
  });
});
