import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountKey, type CreatedKey } from '../helpers/keys.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startPrivateRedis, type PrivateRedis } from '../helpers/private-redis.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Redis stopped for seconds under load, then back with its data and then back empty (a private redis-server the
// test owns): every request is answered 2xx or 503 (never 500, never left hanging), every event whose request
// succeeded is delivered once Redis is back, every job scheduler runs again (re-created after the empty restart),
// and a key deactivation during the outage is refused whole.

const SWEEPS = ['sweep-expired-sessions', 'sweep-expired-keys', 'relay-outbox', 'requeue-stuck-work'];
/** Requests made while Redis is away, one every 150 ms (about 3 s on a quiet machine), and after it is back. */
const DURING = 20;
const AFTER = 4;

let redis: PrivateRedis;
let t: TestContext;
let api: Client;
let receiver: Receiver;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let key: CreatedKey;

beforeAll(async () => {
  redis = await startPrivateRedis();
  t = await createTestContext({
    REDIS_URL: redis.url,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '200,400',
    WEBHOOK_SWEEP_AFTER_MS: '0',
    SCHEDULE_INTERVALS_MS: [...SWEEPS, 'check-schedulers'].map((s) => `${s}=300`).join(','),
  });
  api = client(t.url);
  receiver = await startReceiver();
  owner = await signupAccount(api);
  key = await createAccountKey(api, owner.token, { scopes: ['write:contacts', 'read:contacts'] });
  await api.post('/v1/webhooks', { token: owner.token, body: { url: receiver.url, events: ['contact.created'] } });
  await t.startWorkers({ schedule: true });
}, 300_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  await redis?.destroy();
});

/** Every sweep has completed a run that started after `since`. */
async function everySweepRanSince(since: number): Promise<void> {
  await waitUntil(
    async () => {
      const done = await t.deps.queues.maintenance.getJobs(['completed'], 0, 500).catch(() => []);
      const ran = new Set(done.filter((j) => (j.processedOn ?? 0) > since).map((j) => j.name));
      return SWEEPS.every((s) => ran.has(s));
    },
    30_000,
    'every sweep to run again',
  );
}

let n = 0;
/** POSTs `count` contacts, one every 150 ms, answering each request's status and created id. */
async function createContacts(count: number): Promise<Array<{ status: number; id?: string }>> {
  const results: Array<Promise<{ status: number; id?: string }>> = [];
  for (let i = 0; i < count; i++) {
    n += 1;
    results.push(
      fetch(`${t.url}/v1/contacts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `During ${n}`, email: `during${n}@example.com` }),
        signal: AbortSignal.timeout(60_000),
      }).then(async (res) => ({
        status: res.status,
        id: res.status === 201 ? ((await res.json()) as { id: string }).id : undefined,
      })),
    );
    await new Promise((r) => setTimeout(r, 150));
  }
  return Promise.all(results);
}

async function outage(keepData: boolean) {
  await redis.stop({ keepData });
  const during = createContacts(DURING);
  const deactivation = await api.post(`/v1/api_keys/${key.id}/deactivate`, { token: owner.token });
  const answered = await during;
  await redis.start();
  const restartedAt = Date.now();
  const after = await createContacts(AFTER);
  return { during: answered, answered: [...answered, ...after], deactivation, restartedAt };
}

describe('a Redis outage', () => {
  it.each([
    ['with its data', true],
    ['empty', false],
  ])(
    'restarted %s: 2xx or 503, every committed event delivered, every sweep back, no half deactivation',
    async (_label, keepData) => {
      const { during, answered, deactivation, restartedAt } = await outage(keepData);
      expect(answered).toHaveLength(DURING + AFTER);
      for (const a of answered) expect([201, 503]).toContain(a.status);
      // Creating a contact needs Postgres only: its event and delivery rows commit while Redis is away.
      expect(during.filter((a) => a.status === 201).length).toBeGreaterThan(5);

      // The deactivation needs every instance's cache invalidated, through Redis: refused whole, nothing changed.
      expect(deactivation.status).toBe(503);
      expect(deactivation.body.error.code).toBe('unavailable');
      expect((await api.get('/v1/contacts?limit=1', { token: key.key })).status).toBe(200);
      expect((await t.deps.db('api_keys').where({ id: key.id }).first()).status).toBe('active');

      const committed = answered.filter((a) => a.status === 201).map((a) => a.id!);
      expect(committed.length).toBeGreaterThan(0);
      await waitUntil(
        () => {
          const got = new Set(receiver.received.map((r) => r.body.payload.id));
          return committed.every((id) => got.has(id));
        },
        30_000,
        'every committed event to be delivered',
      );
      await everySweepRanSince(restartedAt);
    },
    300_000,
  );
});
