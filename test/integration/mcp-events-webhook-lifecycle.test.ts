import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, updateKeyRow } from '../helpers/keys.js';
import { connectMcp, type McpConnection } from '../helpers/mcp.js';
import {
  arrivedAt,
  newClientSecret,
  rpcErrorOf,
  startMcpReceiver,
  subscribeWebhook,
  verifyMcp,
} from '../helpers/mcp-events-webhook.js';
import { obtainTokens } from '../helpers/oauth.js';
import type { Receiver } from '../helpers/receiver.js';
import { waitFor, waitUntil } from '../helpers/wait.js';

// How an MCP Events webhook subscription ends (docs/mcp-events-webhook.md): its TTL (a short floor here), its
// credential losing access (terminated at the next event), its limit, and auto-disable (terminated too). Each
// non-delivery is proven by a later sentinel that did arrive.

let t: TestContext;
let api: Client;
let receiver: Receiver;
let failing: Receiver;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agent: string;
const open: McpConnection[] = [];
let n = 0;

async function connect(token: string) {
  const conn = await connectMcp(t.url, '/v1/mcp', token);
  open.push(conn);
  return conn;
}
const newKey = async () => (await createAccountKey(api, owner.token, { scopes: ['read:agents'] })).key;
const touchAgent = () => api.patch(`/v1/agents/${agent}`, { token: owner.token, body: { config: { n: ++n } } });
const subscribeTo = (conn: McpConnection, url: string, secret: string, extra: Record<string, unknown> = {}) =>
  subscribeWebhook(conn, { name: 'agent.updated', delivery: { mode: 'webhook', url, secret }, ...extra });
/** A sentinel subscription of its own key: when it has its event, every earlier delivery had its chance. */
async function sentinel(path: string) {
  const conn = await connect(await newKey());
  await subscribeTo(conn, `${receiver.url}${path}`, newClientSecret());
  return () =>
    waitFor(
      () => arrivedAt(receiver, path),
      (r) => r.length >= 2,
      { what: `the sentinel ${path}` },
    );
}

beforeAll(async () => {
  t = await createTestContext({
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    MCP_WEBHOOK_LIMITS: 'min-ttl-ms=2000,per-principal=2',
    // One quick retry, and a subscription disabled at its first exhausted delivery.
    WEBHOOK_RETRY_DELAYS_MS: '50',
    WEBHOOK_DISABLE_AFTER: '1',
  });
  await t.startWorkers();
  api = client(t.url);
  receiver = await startMcpReceiver();
  failing = await startMcpReceiver({ eventStatus: 500 });
  owner = await signupAccount(api);
  agent = await createAgent(t, owner.accountId, 'Alpha');
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await receiver?.close();
  await failing?.close();
  await t?.close();
});

describe('TTL', () => {
  it('grants the floor for a shorter ttlMs, the ceiling for null, and delivers nothing after expiry', async () => {
    const conn = await connect(await newKey());
    const secret = newClientSecret();
    const short = await subscribeTo(conn, `${receiver.url}/short`, secret, { ttlMs: 10 });
    const grantedMs = new Date(short.refreshBefore!).getTime() - Date.now();
    expect(grantedMs).toBeGreaterThan(0);
    expect(grantedMs).toBeLessThanOrEqual(2000);
    const forever = await subscribeTo(conn, `${receiver.url}/forever`, secret, { ttlMs: null });
    expect(forever.refreshBefore).not.toBeNull();

    await touchAgent();
    const [, first] = await waitFor(
      () => arrivedAt(receiver, '/short'),
      (r) => r.length >= 2,
    );
    expect((await verifyMcp(first!, secret)).name).toBe('agent.updated');

    await waitUntil(() => Date.now() > new Date(short.refreshBefore!).getTime() + 50, 10_000, 'the TTL to pass');
    const arrived = await sentinel('/ttl-sentinel');
    await touchAgent();
    await arrived();
    expect(arrivedAt(receiver, '/short')).toHaveLength(2);

    // A refresh after expiry is a fresh subscription: verified again, then delivered to again.
    const again = await subscribeTo(conn, `${receiver.url}/short`, secret, { ttlMs: 60_000 });
    expect(again.id).toBe(short.id);
    expect(arrivedAt(receiver, '/short')[2]!.body).toMatchObject({ type: 'verification' });
  });
});

describe('revocation', () => {
  it('ends a deactivated key’s subscription at the next event with a terminated body, the event not delivered', async () => {
    const key = await createAccountKey(api, owner.token, { scopes: ['read:agents'] });
    const conn = await connect(key.key);
    const secret = newClientSecret();
    const sub = await subscribeTo(conn, `${receiver.url}/revoked`, secret);
    expect((await api.post(`/v1/api_keys/${key.id}/deactivate`, { token: owner.token })).status).toBe(200);
    await touchAgent();
    const [, terminated] = await waitFor(
      () => arrivedAt(receiver, '/revoked'),
      (r) => r.length >= 2,
    );
    expect(await verifyMcp(terminated!, secret)).toEqual({
      type: 'terminated',
      error: { code: -32012, message: 'Forbidden', data: { reason: 'access revoked' } },
    });
    expect(terminated!.headers['x-mcp-subscription-id']).toBe(sub.id);
    expect(terminated!.headers['webhook-id']).toMatch(/^msg_terminated_/);

    const arrived = await sentinel('/revoked-sentinel');
    await touchAgent();
    await arrived();
    expect(arrivedAt(receiver, '/revoked')).toHaveLength(2);
    const list = await api.get('/v1/webhooks', { token: owner.token });
    expect(list.body.data.some((w: any) => w.mcp?.subscriptionId === sub.id)).toBe(false);
  });

  it('ends a deleted key’s, an expired key’s and a revoked OAuth grant’s subscriptions the same way', async () => {
    const expiring = await createAccountKey(api, owner.token, { scopes: ['read:agents'] });
    await subscribeTo(await connect(expiring.key), `${receiver.url}/expired-key`, newClientSecret());
    const deleted = await createAccountKey(api, owner.token, { scopes: ['read:agents'] });
    await subscribeTo(await connect(deleted.key), `${receiver.url}/deleted-key`, newClientSecret());
    const tokens = await obtainTokens(t.url, {
      resource: `${t.url}/v1/mcp`,
      scope: 'read:agents',
      email: owner.email,
      password: owner.password,
      choose: ['read:agents'],
    });
    const grantSub = await subscribeTo(await connect(tokens.access_token), `${receiver.url}/grant`, newClientSecret());
    const listed = await api.get('/v1/webhooks', { token: owner.token });
    expect(listed.body.data.find((w: any) => w.mcp?.subscriptionId === grantSub.id).mcp.principal).toMatch(/^grant:/);

    await updateKeyRow(t, expiring.id, { expires_at: new Date(Date.now() - 1000) });
    expect((await api.delete(`/v1/api_keys/${deleted.id}`, { token: owner.token })).status).toBe(204);
    const grants = await api.get('/v1/oauth/grants', { token: owner.token });
    for (const grant of grants.body.data) {
      expect((await api.delete(`/v1/oauth/grants/${grant.id}`, { token: owner.token })).status).toBe(204);
    }
    await touchAgent();
    for (const path of ['/expired-key', '/deleted-key', '/grant']) {
      const [, last] = await waitFor(
        () => arrivedAt(receiver, path),
        (r) => r.length >= 2,
        { what: path },
      );
      expect(last!.body).toMatchObject({ type: 'terminated', error: { code: -32012 } });
    }
  });
});

describe('limit and auto-disable', () => {
  it('answers -32013 past the per-principal limit, and still refreshes a live one', async () => {
    const conn = await connect(await newKey());
    const secret = newClientSecret();
    await subscribeTo(conn, `${receiver.url}/limit-1`, secret);
    await subscribeTo(conn, `${receiver.url}/limit-2`, secret);
    const third = await rpcErrorOf(subscribeTo(conn, `${receiver.url}/limit-3`, secret));
    expect(third).toMatchObject({ code: -32013, data: { limit: 'subscriptions', max: 2 } });
    expect(arrivedAt(receiver, '/limit-3')).toHaveLength(0);
    expect((await subscribeTo(conn, `${receiver.url}/limit-2`, secret)).deliveryStatus?.active).toBe(true);
  });

  it('ends a subscription its endpoint keeps failing with a terminated body naming the failure', async () => {
    const conn = await connect(await newKey());
    const secret = newClientSecret();
    const sub = await subscribeTo(conn, `${failing.url}/down`, secret);
    await touchAgent();
    const received = await waitFor(
      () => arrivedAt(failing, '/down'),
      (r) => r.some((x) => x.body?.type === 'terminated'),
    );
    const terminated = received.find((x) => x.body?.type === 'terminated')!;
    expect(await verifyMcp(terminated, secret)).toMatchObject({
      error: { code: -32015, message: 'CallbackEndpointError', data: { reason: 'http_5xx' } },
    });
    // Two attempts of the event (the first and its one retry), each recorded.
    expect(received.filter((x) => x.body?.eventId)).toHaveLength(2);
    const list = await api.get('/v1/webhooks', { token: owner.token });
    expect(list.body.data.find((w: any) => w.mcp?.subscriptionId === sub.id)).toMatchObject({ status: 'disabled' });
    const refreshed = await subscribeTo(conn, `${failing.url}/down`, secret);
    expect(refreshed.deliveryStatus).toMatchObject({ active: false, lastError: 'http_5xx' });
  });
});
