import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent } from '../helpers/keys.js';
import { connectMcp, type McpConnection } from '../helpers/mcp.js';
import {
  arrivedAt,
  newClientSecret,
  rpcErrorOf,
  startMcpReceiver,
  subscribeWebhook,
  verifyMcp,
} from '../helpers/mcp-events-webhook.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/wait.js';

// The rules around the callback and the principal (docs/mcp-events-webhook.md): the address guard without the
// test allowance, no redirects, sessions refused, a secret rotated on refresh that dual-signs, and no expiry where
// the configuration allows it; and one raw request of the stateless era.

let t: TestContext;
let api: Client;
let receiver: Receiver;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agent: string;
let key: string;
const open: McpConnection[] = [];

async function connect(token: string) {
  const conn = await connectMcp(t.url, '/v1/mcp', token);
  open.push(conn);
  return conn;
}
const subscribeTo = (conn: McpConnection, url: string, secret: string) =>
  subscribeWebhook(conn, { name: 'agent.updated', delivery: { mode: 'webhook', url, secret } });

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', MCP_WEBHOOK_LIMITS: 'no-expiry=1' });
  await t.startWorkers();
  api = client(t.url);
  receiver = await startMcpReceiver();
  owner = await signupAccount(api);
  agent = await createAgent(t, owner.accountId, 'Alpha');
  key = (await createAccountKey(api, owner.token, { scopes: ['read:agents'] })).key;
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await receiver?.close();
  await t?.close();
});

describe('the callback URL and the principal', () => {
  it('refuses http:// and private addresses when private targets are not allowed', async () => {
    const strict = await createTestContext();
    try {
      const strictApi = client(strict.url);
      const o = await signupAccount(strictApi);
      const k = (await createAccountKey(strictApi, o.token, { scopes: ['read:agents'] })).key;
      const conn = await connectMcp(strict.url, '/v1/mcp', k);
      open.push(conn);
      for (const url of ['http://example.com/hook', 'https://127.0.0.1/hook', 'https://[::1]/hook', receiver.url]) {
        const refused = await rpcErrorOf(subscribeTo(conn, url, newClientSecret()));
        expect(refused, url).toMatchObject({ code: -32602 });
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  it('does not follow a redirect from the verification POST', async () => {
    const target = await startMcpReceiver();
    const redirecting = await startReceiver(() => ({ status: 307, headers: { location: `${target.url}/x` } }));
    try {
      const conn = await connect(key);
      const failed = await rpcErrorOf(subscribeTo(conn, `${redirecting.url}/hook`, newClientSecret()));
      expect(failed).toMatchObject({ code: -32015, data: { reason: 'http_4xx' } });
      expect(redirecting.received).toHaveLength(1);
      expect(target.received).toHaveLength(0);
    } finally {
      await redirecting.close();
      await target.close();
    }
  });

  it('refuses a dashboard session as the principal (-32012)', async () => {
    const conn = await connect(owner.token);
    const refused = await rpcErrorOf(subscribeTo(conn, `${receiver.url}/session`, newClientSecret()));
    expect(refused).toMatchObject({ code: -32012 });
    expect(arrivedAt(receiver, '/session')).toHaveLength(0);
  });

  it('rotates the secret on refresh: the next delivery verifies with the new secret and the old', async () => {
    const conn = await connect(key);
    const [oldSecret, newSecret] = [newClientSecret(), newClientSecret(48)];
    await subscribeTo(conn, `${receiver.url}/rotate`, oldSecret);
    await subscribeTo(conn, `${receiver.url}/rotate`, newSecret);
    await api.patch(`/v1/agents/${agent}`, { token: owner.token, body: { config: { rotated: true } } });
    const [, delivered] = await waitFor(
      () => arrivedAt(receiver, '/rotate'),
      (r) => r.length >= 2,
    );
    expect(String(delivered!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect((await verifyMcp(delivered!, newSecret)).name).toBe('agent.updated');
    expect((await verifyMcp(delivered!, oldSecret)).name).toBe('agent.updated');
  });

  it('grants no expiry only when ttlMs: null asks for it (and the configuration allows it)', async () => {
    const conn = await connect(key);
    const secret = newClientSecret();
    const forever = await subscribeWebhook(conn, {
      name: 'agent.updated',
      arguments: { agentId: agent },
      delivery: { mode: 'webhook', url: `${receiver.url}/forever`, secret },
      ttlMs: null,
    });
    expect(forever.refreshBefore).toBeNull();
    const list = await api.get('/v1/webhooks', { token: owner.token });
    expect(list.body.data.find((w: any) => w.mcp?.subscriptionId === forever.id).mcp.expiresAt).toBeNull();
    const omitted = await subscribeTo(conn, `${receiver.url}/forever`, secret);
    expect(omitted.refreshBefore).not.toBeNull();
  });

  it('answers events/subscribe in the stateless revision over raw HTTP', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const params = {
      name: 'agent.updated',
      delivery: { mode: 'webhook', url: `${receiver.url}/stateless`, secret: newClientSecret() },
      _meta: meta,
    };
    const res = await api.post('/v1/mcp', {
      token: key,
      headers: {
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'events/subscribe',
        'mcp-name': 'agent.updated',
      },
      body: { jsonrpc: '2.0', id: 7, method: 'events/subscribe', params },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: 7,
      result: { id: expect.stringMatching(/^sub_/), truncated: false, resultType: 'complete' },
    });
    await api.patch(`/v1/agents/${agent}`, { token: owner.token, body: { config: { stateless: true } } });
    const [, delivered] = await waitFor(
      () => arrivedAt(receiver, '/stateless'),
      (r) => r.length >= 2,
    );
    expect(delivered!.headers['x-mcp-subscription-id']).toBe(res.body.result.id);
    expect(await verifyMcp(delivered!, params.delivery.secret)).toMatchObject({ name: 'agent.updated' });
    const bad = await api.post('/v1/mcp', {
      token: key,
      headers: {
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'events/subscribe',
        'mcp-name': 'agent.updated',
      },
      body: {
        jsonrpc: '2.0',
        id: 8,
        method: 'events/subscribe',
        params: { ...params, delivery: { mode: 'webhook', url: 'x', secret: 'y' } },
      },
    });
    expect(bad.body).toMatchObject({ id: 8, error: { code: -32602 } });
  });
});
