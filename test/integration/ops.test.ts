import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

describe('ops endpoints with credentials configured', () => {
  let t: TestContext;
  let api: Client;
  beforeAll(async () => {
    t = await createTestContext({ OPS_USERNAME: 'operator', OPS_PASSWORD: 'ops-password-123' });
    api = client(t.url);
  });
  afterAll(() => t.close());

  it('refuses /metrics and /admin/queues without or with wrong credentials', async () => {
    for (const path of ['/metrics', '/admin/queues']) {
      const none = await api.get(path);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toContain('Basic');
      const wrongPass = await api.get(path, { headers: { authorization: basic('operator', 'nope') } });
      expect(wrongPass.status).toBe(401);
      const wrongUser = await api.get(path, { headers: { authorization: basic('admin', 'ops-password-123') } });
      expect(wrongUser.status).toBe(401);
      // An API session is not an operator credential.
      const owner = await signupAccount(api);
      expect((await api.get(path, { token: owner.token })).status).toBe(401);
    }
  });

  it('serves Prometheus metrics with request durations by route and queue depth per queue', async () => {
    await api.get('/healthz');
    const res = await api.get('/metrics', { headers: { authorization: basic('operator', 'ops-password-123') } });
    expect(res.status).toBe(200);
    const text = res.body as string;
    expect(text).toMatch(/http_request_duration_seconds_bucket\{[^}]*route="\/healthz"[^}]*status="200"/);
    for (const q of ['webhook-fanout', 'webhook-delivery', 'agent-runs', 'message-send', 'maintenance']) {
      expect(text).toContain(`bullmq_queue_jobs{queue="${q}",state="waiting"}`);
    }
  });

  it('serves bull-board with every queue', async () => {
    const auth = { authorization: basic('operator', 'ops-password-123') };
    const page = await api.get('/admin/queues', { headers: auth });
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('<html');
    const queues = await api.get('/admin/queues/api/queues', { headers: auth });
    expect(queues.status).toBe(200);
    const names = queues.body.queues.map((q: { name: string }) => q.name).sort();
    expect(names).toEqual(['agent-runs', 'maintenance', 'message-send', 'webhook-delivery', 'webhook-fanout']);
  });
});

describe('ops endpoints without credentials configured, in production', () => {
  let t: TestContext;
  beforeAll(async () => {
    // Elsewhere (development, tests) credentials are generated when none are given: test/integration/first-run.test.ts.
    t = await createTestContext({ NODE_ENV: 'production' });
    expect(t.deps.config.ops).toBeNull();
  });
  afterAll(() => t.close());

  it('answers 404 for both, even with a Basic header', async () => {
    const api = client(t.url);
    for (const path of ['/metrics', '/admin/queues', '/admin/queues/api/queues']) {
      const res = await api.get(path, { headers: { authorization: basic('operator', 'x') } });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});
