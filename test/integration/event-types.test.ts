import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventPayloadSchema } from '../../src/feed/event-schemas.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, createAgentKey } from '../helpers/keys.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

let t: TestContext;
let api: Client;

beforeAll(async () => {
  t = await createTestContext();
  api = client(t.url);
});
afterAll(() => t.close());

// Every event name of the interface (the Events table and the further catalog), with the status decided in
// docs/adr/0023-event-catalog.md and #inbox-updated: eight are written by the service; the rest are planned;
// and the platform's
// operational events.
const EXPECTED: Record<string, 'emitted' | 'planned'> = {
  'message.received': 'emitted',
  'message.sent': 'emitted',
  'message.drafted': 'emitted',
  'inbox.created': 'emitted',
  'inbox.updated': 'planned',
  'inbox.deleted': 'emitted',
  'contact.created': 'emitted',
  'contact.updated': 'emitted',
  'agent.updated': 'emitted',
  'message.delivered': 'planned',
  'message.bounced': 'planned',
  'message.complained': 'planned',
  'message.rejected': 'planned',
  'escalation.triggered': 'planned',
  // Operational events (docs/webhooks.md#operational-events).
  'webhook.disabled': 'emitted',
  'webhook.delivery_exhausted': 'emitted',
  'api_key.expiring': 'emitted',
  'api_key.expired': 'emitted',
  'api_key.deactivated': 'emitted',
  'api_key.spend_cap_reached': 'emitted',
  'billing.credits_low': 'emitted',
  'billing.credits_exhausted': 'emitted',
};

describe('GET /v1/event-types', () => {
  it('lists every event name of the interface with its status and a description', async () => {
    const { token } = await signupAccount(api);
    const res = await api.get('/v1/event-types', { token });
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.nextCursor).toBeNull();
    const byName = Object.fromEntries(res.body.data.map((e: { name: string; status: string }) => [e.name, e.status]));
    expect(byName).toEqual(EXPECTED);
    for (const e of res.body.data) expect(e.description).toEqual(expect.any(String));
    // The test-only event is not subscribable and so not listed.
    expect(Object.keys(byName)).not.toContain('webhook.test');
  });

  it("gives every event type its payload's JSON Schema: the one its filters are checked against", async () => {
    const { token } = await signupAccount(api);
    const res = await api.get('/v1/event-types', { token });
    for (const e of res.body.data) {
      // The schema the payload is checked against, as JSON Schema; the resource's own definition at the top.
      const zod = z.toJSONSchema(eventPayloadSchema(e.name), { io: 'output', unrepresentable: 'any' }) as any;
      const root = zod.$ref ? zod.$defs[zod.$ref.replace('#/$defs/', '')] : zod;
      expect(e.payloadSchema, e.name).toMatchObject({
        type: root.type,
        ...(root.properties && { properties: root.properties }),
      });
      expect(e.payloadSchema.$ref, e.name).toBeUndefined();
    }
    const contact = res.body.data.find((e: { name: string }) => e.name === 'contact.created');
    expect(contact.payloadSchema.properties.email.anyOf[0]).toMatchObject({ type: 'string', format: 'email' });
    expect(contact.payloadSchema.properties.createdAt).toEqual({ $ref: '#/$defs/Timestamp' });
    expect(contact.payloadSchema.$defs.Timestamp.format).toBe('date-time');
  });

  it('is open to any session or account key, whatever its scopes; per-agent keys get 403; no credential 401', async () => {
    const owner = await signupAccount(api);
    const narrow = await createAccountKey(api, owner.token, { scopes: ['read:agents'] });
    expect((await api.get('/v1/event-types', { token: narrow.key })).status).toBe(200);

    const agentKey = await createAgentKey(api, owner.token, await createAgent(t, owner.accountId));
    const forbidden = await api.get('/v1/event-types', { token: agentKey.key });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('agent_forbidden');

    const none = await api.get('/v1/event-types');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('missing_credential');
  });
});
