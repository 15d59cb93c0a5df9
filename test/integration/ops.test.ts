import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardKey, shardRegistryKey } from '../../src/platform/shards.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { setupAccount } from '../helpers/setup-account.js';

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

describe('ops endpoints with credentials configured', () => {
  let t: TestContext;
  let api: Client;
  beforeAll(async () => {
    t = await createTestContext({
      OPS_USERNAME: 'operator',
      OPS_PASSWORD: 'ops-password-123',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
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

  it('shows delivery jobs by event and subscription, ids only, and keeps their queue read-only', async () => {
    const auth = { authorization: basic('operator', 'ops-password-123') };
    const owner = await setupAccount(t, { webhook: { url: 'http://127.0.0.1:9/hook' } });
    // No worker runs in this context: the test event's job waits in the queue.
    const sent = await api.post(`/v1/webhooks/${owner.webhook.id}/test`, { token: owner.token });
    expect(sent.status).toBe(202);
    const board = await api.get('/admin/queues/api/queues?activeQueue=webhook-delivery&status=waiting', {
      headers: auth,
    });
    const queue = board.body.queues.find((q: { name: string }) => q.name === 'webhook-delivery');
    expect(queue.readOnlyMode).toBe(true);
    expect(queue.allowRetries).toBe(false);
    const job = queue.jobs.find((j: { data: { deliveryId: string } }) => j.data.deliveryId === sent.body.deliveryId);
    expect(job.name).toBe(`deliver-webhook webhook.test → ${owner.webhook.id} (job 1)`);
    expect(job.data).toEqual({ deliveryId: sent.body.deliveryId, seq: 1 });

    // The board's actions on that queue are refused by bull-board's server, not only hidden.
    const jobPath = `webhook-delivery/${encodeURIComponent(job.id)}`;
    for (const path of [
      'webhook-delivery/retry/failed',
      'webhook-delivery/promote',
      `${jobPath}/retry`,
      `${jobPath}/promote`,
    ]) {
      const res = await api.put(`/admin/queues/api/queues/${path}`, { headers: auth });
      expect([path, res.status]).toEqual([path, 405]);
    }
    const waiting = await t.deps.queues['webhook-delivery'].getJobState(job.id);
    expect(waiting).toBe('waiting');
    const other = board.body.queues.find((q: { name: string }) => q.name === 'webhook-fanout');
    expect(other.readOnlyMode).toBe(false);
  });
});

describe('ops endpoints with WEBHOOK_SHARDS=3', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      OPS_USERNAME: 'operator',
      OPS_PASSWORD: 'ops-password-123',
      WEBHOOK_SHARDS: '3',
    });
  });
  afterAll(() => t.close());
  const auth = { authorization: basic('operator', 'ops-password-123') };
  const partitions = ['webhook-delivery-p0', 'webhook-delivery-p1', 'webhook-delivery-p2'];

  it('shows each delivery shard in bull-board, each read-only', async () => {
    const { body } = await client(t.url).get('/admin/queues/api/queues', { headers: auth });
    const delivery = body.queues.filter((q: { name: string }) => q.name.startsWith('webhook-delivery'));
    expect(delivery.map((q: { name: string }) => q.name).sort()).toEqual(partitions);
    expect(delivery.every((q: { readOnlyMode: boolean }) => q.readOnlyMode)).toBe(true);
  });

  it('shows a shard of an earlier K while it still holds jobs, read-only, named with its prefix', async () => {
    const prefix = t.deps.config.bullmqPrefix;
    // The shard of K=1, recorded by the workers of that K.
    await t.deps.redis.sadd(shardRegistryKey(prefix), shardKey({ prefix, name: 'webhook-delivery' }));
    const old = t.deps.queues.deliveryQueueOf({ prefix, name: 'webhook-delivery' });
    await old.add('deliver-webhook', { deliveryId: crypto.randomUUID(), seq: 1 }, { jobId: 'left-over' });
    const { body } = await client(t.url).get('/admin/queues/api/queues', { headers: auth });
    const draining = body.queues.find((q: { name: string }) => q.name === `${prefix}:webhook-delivery`);
    expect(draining.readOnlyMode).toBe(true);
    await old.remove('left-over');
    const after = await client(t.url).get('/admin/queues/api/queues', { headers: auth });
    expect(after.body.queues.map((q: { name: string }) => q.name)).not.toContain(`${prefix}:webhook-delivery`);
  });

  it('reports queue depth per partition in /metrics', async () => {
    const text = (await client(t.url).get('/metrics', { headers: auth })).body as string;
    for (const q of partitions) expect(text).toContain(`bullmq_queue_jobs{queue="${q}",state="waiting"}`);
    expect(text).not.toContain('bullmq_queue_jobs{queue="webhook-delivery",');
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
