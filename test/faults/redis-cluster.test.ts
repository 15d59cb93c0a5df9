import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedules } from '../../workers/schedules.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey } from '../helpers/keys.js';
import { startPrivateCluster, type PrivateCluster } from '../helpers/private-cluster.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, TEST_APP_SECRET, type TestContext } from '../helpers/test-context.js';
import { verifySwitchboardSignature } from '../helpers/webhook-verify.js';
import { runChild } from '../helpers/children.js';

// The service on a real 3-master Redis Cluster of the test's own (redis-server children on spare ports): the
// delivery pipeline (events → jobs → signed POSTs → attempts, with retries through delayed jobs), the job
// schedulers, and a key revocation seen by a second API instance with its own cluster connection. Then the cluster
// is stopped, and the real worker entry point, given its nodes, refuses to start with one line.

const CONTACTS = 12;

let cluster: PrivateCluster;
let t: TestContext;
let api: Client;
let receiver: Receiver;
let owner: Awaited<ReturnType<typeof signupAccount>>;

beforeAll(async () => {
  cluster = await startPrivateCluster(3);
  t = await createTestContext({
    REDIS_URL: undefined,
    REDIS_CLUSTER_NODES: cluster.nodes,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '100,200',
    SCHEDULE_INTERVALS_MS: schedules.map((s) => `${s.id}=500`).join(','),
  });
  api = client(t.url);
  // The first arrival of every third contact's event fails, so its retry goes through a delayed job.
  const seen = new Set<string>();
  receiver = await startReceiver((r) => {
    const id = String(r.body?.id);
    const n = Number(String(r.body?.payload?.name ?? '').replace('Contact ', ''));
    if (n % 3 === 0 && !seen.has(id)) {
      seen.add(id);
      return { status: 500 };
    }
    return { status: 200 };
  });
  owner = await signupAccount(api);
}, 300_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  await cluster?.destroy();
});

describe('on a Redis Cluster', () => {
  it('delivers signed webhooks with retries and runs every job scheduler', async () => {
    const wh = (
      await api.post('/v1/webhooks', { token: owner.token, body: { url: receiver.url, events: ['contact.created'] } })
    ).body;
    await t.startWorkers({ schedule: true });
    const since = Date.now();
    for (let i = 1; i <= CONTACTS; i++) {
      const res = await api.post('/v1/contacts', {
        token: owner.token,
        body: { name: `Contact ${i}`, email: `c${i}@example.com` },
      });
      expect(res.status).toBe(201);
    }

    const rows = await waitUntil(
      async () => {
        const all = await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id });
        return all.length === CONTACTS && all.every((d) => d.status === 'succeeded') && all;
      },
      30_000,
      'every delivery to succeed',
    );
    for (const d of rows) {
      const arrivals = receiver.received.filter((r) => r.body?.id === d.id);
      expect(arrivals.length).toBeGreaterThanOrEqual(1);
      expect(arrivals.every((r) => verifySwitchboardSignature(r, wh.secret))).toBe(true);
      const attempts = await t.deps.db('webhook_attempts').where({ delivery_id: d.id });
      expect(attempts).toHaveLength(arrivals.length);
    }
    expect(receiver.received.length).toBe(CONTACTS + Math.floor(CONTACTS / 3));

    await waitUntil(
      async () => {
        const done = await t.deps.queues.maintenance.getJobs(['completed'], 0, 200);
        const ran = new Set(done.filter((j) => (j.processedOn ?? 0) > since).map((j) => j.name));
        return schedules.every((s) => ran.has(s.job.name));
      },
      30_000,
      'every job scheduler to run on the cluster',
    );
  }, 300_000);

  it('refuses a rotated-then-deactivated key on the very next request, also on a second instance', async () => {
    const other = client((await t.startAnotherServer()).url);
    const a = await createAccountKey(api, owner.token);
    const b = await createAccountKey(api, owner.token);
    // The second instance caches both rows; the rotation gives key a second secret hash (two epochs: one MULTI).
    expect((await other.get('/v1/account', { token: a.key })).status).toBe(200);
    expect((await other.get('/v1/account', { token: b.key })).status).toBe(200);
    const rotated = (await api.post(`/v1/api_keys/${a.id}/rotate`, { token: owner.token })).body.key as string;
    expect((await other.get('/v1/account', { token: rotated })).status).toBe(200);
    expect((await other.get('/v1/account', { token: a.key })).headers.get('deprecation')).toBe('true');

    expect((await api.post(`/v1/api_keys/${a.id}/deactivate`, { token: owner.token })).status).toBe(200);
    for (const [via, secret] of [
      [other, rotated],
      [api, rotated],
      [other, a.key],
    ] as const) {
      const res = await via.get('/v1/account', { token: secret });
      expect(res.status).toBe(401);
    }
    expect((await other.get('/v1/account', { token: rotated })).body.error.code).toBe('key_deactivated');

    // And the other way round: deleted through the second instance, refused by the first at once.
    expect((await api.get('/v1/account', { token: b.key })).status).toBe(200);
    expect((await other.delete(`/v1/api_keys/${b.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.get('/v1/account', { token: b.key })).body.error.code).toBe('invalid_credential');
  });

  it('keeps every key it wrote under the prefix, in one slot on one master', async () => {
    // Every key the service wrote (queues, schedulers, key epochs) starts with the prefix, so all sit in one slot,
    // hence on one master. The cluster is the test's own: nothing else writes to it.
    const perNode = await Promise.all(
      cluster.ports.map(async (port) => {
        const node = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0 });
        const [, keys] = await node.scan('0', 'MATCH', '*', 'COUNT', 100_000);
        node.disconnect();
        return keys;
      }),
    );
    const all = perNode.flat();
    expect(all.some((k) => k.includes(':key-epoch:'))).toBe(true);
    expect(all.filter((k) => !k.startsWith(`${t.deps.config.bullmqPrefix}:`))).toEqual([]);
    expect(perNode.filter((keys) => keys.length > 0)).toHaveLength(1);
  });

  it('once its nodes are gone, the service refuses to start with one line naming them', async () => {
    // Postgres is checked first (through its `postgres` database), so the dropped database is never reached.
    const databaseUrl = t.deps.config.database.url;
    await t.close();
    t = undefined as unknown as TestContext;
    await cluster.destroy();
    // The worker entry point (the Procfile's `worker`): the same start-up as `web`, with less to load.
    const res = await runChild(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        APP_SECRET: TEST_APP_SECRET,
        DATABASE_URL: databaseUrl,
        REDIS_URL: '',
        REDIS_CLUSTER_NODES: cluster.nodes,
        BULLMQ_PREFIX: '{sb}',
        PORT: '0',
      },
    });
    expect(res.status).toBe(1);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `switchboard: Redis Cluster does not answer at REDIS_CLUSTER_NODES (${cluster.nodes.split(',').join(', ')}), or its state is not ok`,
    );
  }, 300_000);
});
