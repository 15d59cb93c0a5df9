import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, createAgentKey } from '../helpers/keys.js';
import { connectMcp, type McpConnection } from '../helpers/mcp.js';
import {
  arrivedAt,
  newClientSecret,
  rpcErrorOf,
  startMcpReceiver,
  subscribeWebhook,
  unsubscribeWebhook,
  verifyMcp,
} from '../helpers/mcp-events-webhook.js';
import { closedPort, type Receiver } from '../helpers/receiver.js';
import { waitFor, waitUntil } from '../helpers/wait.js';

// MCP Events webhook mode (docs/mcp-events.md#webhook-mode) with the SDK's own Client on both MCP endpoints (the
// stateless era's raw request is in mcp-events-webhook-guard.test.ts): a subscription made with events/subscribe is delivered by the webhook engine
// to a real receiver, which verifies the Standard Webhooks signature with the secret the client chose.

let t: TestContext;
let api: Client;
let receiver: Receiver;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let other: Awaited<ReturnType<typeof signupAccount>>;
let agentA: string;
let agentB: string;
let accountKey: string;
let agentKeyA: string;
const open: McpConnection[] = [];

async function connect(path: string, token: string) {
  const conn = await connectMcp(t.url, path, token);
  open.push(conn);
  return conn;
}
const touchAgent = (agentId: string, n: number) =>
  api.patch(`/v1/agents/${agentId}`, { token: owner.token, body: { config: { n } } });
/** The delivery rows of a subscription: written with the event, so counting them right after it is definitive. */
async function deliveriesOf(subscriptionId: string): Promise<number> {
  const row = await t.deps.db('webhooks').where({ mcp_subscription_id: subscriptionId }).first('id');
  const [count] = await t.deps.db('webhook_deliveries').where({ webhook_id: row.id }).count('* as n');
  return Number(count!.n);
}
const webhook = (url: string, secret: string, extra: Record<string, unknown> = {}) => ({
  delivery: { mode: 'webhook', url, secret },
  ...extra,
});

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  await t.startWorkers();
  api = client(t.url);
  receiver = await startMcpReceiver();
  owner = await signupAccount(api);
  other = await signupAccount(api, 'Other');
  agentA = await createAgent(t, owner.accountId, 'Alpha');
  agentB = await createAgent(t, owner.accountId, 'Beta');
  accountKey = (await createAccountKey(api, owner.token, { scopes: ['read:agents', 'read:contacts'] })).key;
  agentKeyA = (await createAgentKey(api, owner.token, agentA)).key;
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await receiver?.close();
  await t?.close();
});

describe('events/subscribe on the account endpoint', () => {
  it('verifies the endpoint, then delivers an event made through the REST API as a signed EventOccurrence', async () => {
    const conn = await connect('/v1/mcp', accountKey);
    const secret = newClientSecret();
    const url = `${receiver.url}/account`;
    const sub = await subscribeWebhook(conn, { name: 'agent.updated', arguments: {}, ...webhook(url, secret) });
    expect(sub).toMatchObject({ id: expect.stringMatching(/^sub_[0-9a-f]{32}$/), truncated: false });
    expect(typeof sub.cursor).toBe('string');
    expect(new Date(sub.refreshBefore!).getTime()).toBeGreaterThan(Date.now());

    const [challenge] = arrivedAt(receiver, '/account');
    expect(challenge!.headers['x-mcp-subscription-id']).toBe(sub.id);
    expect(challenge!.headers['webhook-id']).toMatch(/^msg_verification_/);
    expect(await verifyMcp(challenge!, secret)).toMatchObject({ type: 'verification' });

    const patched = await touchAgent(agentA, 1);
    const [, delivered] = await waitFor(
      () => arrivedAt(receiver, '/account'),
      (r) => r.length >= 2,
    );
    const body = await verifyMcp(delivered!, secret);
    expect(Object.keys(body).sort()).toEqual(['cursor', 'data', 'eventId', 'name', 'timestamp']);
    expect(body).toMatchObject({ name: 'agent.updated', data: patched.body, eventId: expect.stringMatching(/^evt_/) });
    expect(delivered!.headers['webhook-id']).toBe(body.eventId);
    expect(delivered!.headers['x-mcp-subscription-id']).toBe(sub.id);
    expect(delivered!.headers['x-switchboard-signature']).toBeUndefined();
    // Signed with the client's secret and nothing else: another secret does not verify it.
    await expect(verifyMcp(delivered!, newClientSecret())).rejects.toThrow();

    // A refresh is idempotent: the same id, no second handshake, its delivery status, one subscription. The
    // receiver has the delivery before its attempt is recorded: the refresh waits for the record.
    await waitUntil(
      async () => (await t.deps.db('webhook_attempts').where({ account_id: owner.accountId })).length > 0,
      30_000,
      'the delivery recorded',
    );
    const again = await subscribeWebhook(conn, { name: 'agent.updated', arguments: {}, ...webhook(url, secret) });
    expect(again.id).toBe(sub.id);
    expect(again.deliveryStatus).toMatchObject({ active: true, lastError: null, lastDeliveryAt: expect.any(String) });
    expect(arrivedAt(receiver, '/account').filter((r) => r.body?.type === 'verification')).toHaveLength(1);
    const list = await api.get('/v1/webhooks', { token: owner.token });
    const rows = list.body.data.filter((w: any) => w.mcp?.subscriptionId === sub.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'http',
      url,
      events: ['agent.updated'],
      mcp: { principal: expect.stringMatching(/^key:/), expiresAt: again.refreshBefore },
    });
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6));
    // Its attempts are recorded like any subscription's, with the headers sent.
    const attempts = await api.get(`/v1/webhooks/${rows[0].id}/attempts`, { token: owner.token });
    expect(attempts.body.data[0]).toMatchObject({
      status: 'succeeded',
      requestHeaders: { 'x-mcp-subscription-id': sub.id, 'webhook-id': body.eventId },
    });
    const page = await fetch(`${t.url}/dashboard/webhooks`, { headers: { cookie: `sb_dash=${owner.token}` } });
    const text = await page.text();
    expect(text).toContain(`MCP events/subscribe by ${rows[0].mcp.principal}`);
    expect(text).not.toContain(secret.slice(6));
  });

  it('derives a different id for other arguments, and filters by them', async () => {
    const conn = await connect('/v1/mcp', accountKey);
    const secret = newClientSecret();
    const url = `${receiver.url}/only-b`;
    const sub = await subscribeWebhook(conn, {
      name: 'agent.updated',
      arguments: { agentId: agentB },
      ...webhook(url, secret),
    });
    await touchAgent(agentA, 2);
    expect(await deliveriesOf(sub.id)).toBe(0);
    await touchAgent(agentB, 2);
    const [, event] = await waitFor(
      () => arrivedAt(receiver, '/only-b'),
      (r) => r.length >= 2,
    );
    expect((await verifyMcp(event!, secret)).data.id).toBe(agentB);
    expect(sub.id).not.toBe((await subscribeWebhook(conn, { name: 'agent.updated', ...webhook(url, secret) })).id);
  });

  it('refuses what is invalid, unknown, not offered or not visible, with the sketch’s codes', async () => {
    const conn = await connect('/v1/mcp', accountKey);
    const url = `${receiver.url}/refused`;
    const secret = newClientSecret();
    const ask = (params: Record<string, unknown>) => rpcErrorOf(subscribeWebhook(conn, params));
    for (const bad of ['whsec_' + Buffer.alloc(16).toString('base64'), 'whsec_!!!', newClientSecret(65), 'secret']) {
      expect(await ask({ name: 'agent.updated', ...webhook(url, bad) })).toMatchObject({ code: -32602 });
    }
    for (const badUrl of ['not a url', 'ftp://example.com/hook']) {
      expect(await ask({ name: 'agent.updated', ...webhook(badUrl, secret) })).toMatchObject({ code: -32602 });
    }
    expect(await ask({ name: 'agent.updated', arguments: { colour: 'red' }, ...webhook(url, secret) })).toMatchObject({
      code: -32602,
    });
    expect(await ask({ name: 'agent.updated', delivery: { mode: 'push', url, secret } })).toMatchObject({
      code: -32014,
      data: { feature: 'deliveryMode', value: 'push' },
    });
    expect(await ask({ name: 'agent.exploded', ...webhook(url, secret) })).toMatchObject({
      code: -32011,
      data: { kind: 'event' },
    });
    // message.* needs read:messages, which this key lacks.
    expect(await ask({ name: 'message.received', ...webhook(url, secret) })).toMatchObject({ code: -32012 });
    // Nothing was stored, and nothing was sent to the URL.
    expect(arrivedAt(receiver, '/refused')).toHaveLength(0);
  });

  it('answers -32015 when the endpoint does not echo the challenge or cannot be reached', async () => {
    const conn = await connect('/v1/mcp', accountKey);
    const mute = await startMcpReceiver({ echo: false });
    try {
      const failed = await rpcErrorOf(
        subscribeWebhook(conn, { name: 'agent.updated', ...webhook(`${mute.url}/x`, newClientSecret()) }),
      );
      expect(failed).toMatchObject({ code: -32015, data: { reason: 'challenge_failed' } });
    } finally {
      await mute.close();
    }
    const refused = await rpcErrorOf(
      subscribeWebhook(conn, {
        name: 'agent.updated',
        ...webhook(`http://127.0.0.1:${await closedPort()}/x`, newClientSecret()),
      }),
    );
    expect(refused).toMatchObject({ code: -32015, data: { reason: 'connection_refused' } });
  });
});

describe('events/subscribe on the per-agent endpoint', () => {
  it('delivers only events about its agent, and refuses another agent’s', async () => {
    const conn = await connect(`/v1/agents/${agentA}/mcp`, agentKeyA);
    const secret = newClientSecret();
    const url = `${receiver.url}/agent-a`;
    const sub = await subscribeWebhook(conn, { name: 'agent.updated', ...webhook(url, secret) });
    await touchAgent(agentB, 3);
    expect(await deliveriesOf(sub.id)).toBe(0);
    await touchAgent(agentA, 3);
    const [, event] = await waitFor(
      () => arrivedAt(receiver, '/agent-a'),
      (r) => r.length >= 2,
    );
    expect((await verifyMcp(event!, secret)).data.id).toBe(agentA);
    expect(arrivedAt(receiver, '/agent-a')).toHaveLength(2);
    expect(await deliveriesOf(sub.id)).toBe(1);

    // On the per-agent endpoint the agent is the endpoint's: no argument names one, so naming another is no
    // argument of the inputSchema at all.
    const otherAgent = await rpcErrorOf(
      subscribeWebhook(conn, { name: 'agent.updated', arguments: { agentId: agentB }, ...webhook(url, secret) }),
    );
    expect(otherAgent).toMatchObject({ code: -32602 });
    expect(
      await rpcErrorOf(subscribeWebhook(conn, { name: 'contact.created', ...webhook(url, secret) })),
    ).toMatchObject({ code: -32012 });
    // Another agent's endpoint does not take this agent's key at all.
    const res = await api.post(`/v1/agents/${agentB}/mcp`, {
      token: agentKeyA,
      headers: { accept: 'application/json, text/event-stream' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'events/subscribe',
        params: { name: 'agent.updated', ...webhook(url, secret) },
      },
    });
    expect(res.status).toBe(403);
  });
});

describe('across accounts, and unsubscribe', () => {
  it('never lets another account watch this one’s agent or end its subscription', async () => {
    const otherKey = (await createAccountKey(api, other.token, { scopes: ['read:agents'] })).key;
    const conn = await connect('/v1/mcp', otherKey);
    const url = `${receiver.url}/other`;
    const watching = await rpcErrorOf(
      subscribeWebhook(conn, {
        name: 'agent.updated',
        arguments: { agentId: agentA },
        ...webhook(url, newClientSecret()),
      }),
    );
    expect(watching).toMatchObject({ code: -32012 });
    const ending = await rpcErrorOf(
      unsubscribeWebhook(conn, { name: 'agent.updated', arguments: {}, delivery: { url: `${receiver.url}/account` } }),
    );
    expect(ending).toMatchObject({ code: -32011, data: { kind: 'subscription' } });
  });

  it('unsubscribes: no delivery afterwards (a later sentinel arrives), and a second unsubscribe is -32011', async () => {
    const conn = await connect('/v1/mcp', accountKey);
    const secret = newClientSecret();
    const gone = `${receiver.url}/gone`;
    const sentinel = `${receiver.url}/sentinel`;
    await subscribeWebhook(conn, { name: 'agent.updated', ...webhook(gone, secret) });
    await subscribeWebhook(conn, { name: 'agent.updated', ...webhook(sentinel, secret) });
    expect(await unsubscribeWebhook(conn, { name: 'agent.updated', arguments: {}, delivery: { url: gone } })).toEqual(
      {},
    );
    await touchAgent(agentA, 4);
    await waitFor(
      () => arrivedAt(receiver, '/sentinel'),
      (r) => r.length >= 2,
    );
    expect(arrivedAt(receiver, '/gone').map((r) => r.body?.type)).toEqual(['verification']);
    expect(
      await rpcErrorOf(unsubscribeWebhook(conn, { name: 'agent.updated', delivery: { url: gone } })),
    ).toMatchObject({ code: -32011, data: { kind: 'subscription' } });
  });
});
