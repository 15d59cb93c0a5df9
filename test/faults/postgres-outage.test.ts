import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, type CreatedKey } from '../helpers/keys.js';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Postgres really stopped (a private cluster the test owns, made with the installed server binaries) while
// deliveries are in flight: every request answers 503 `unavailable` (never a 500, never a credential error), the
// service recovers without a restart, and every delivery in flight is settled once the server is back.

let pgServer: PrivatePostgres;
let t: TestContext;
let api: Client;
let receiver: Receiver;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let cachedKey: CreatedKey;
let coldKey: CreatedKey;

beforeAll(async () => {
  pgServer = await startPrivatePostgres();
  t = await createTestContext(
    {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '200,400',
      WEBHOOK_SWEEP_AFTER_MS: '0',
      SCHEDULE_INTERVALS_MS: 'relay-outbox=500,check-schedulers=500',
    },
    { databaseUrl: pgServer.urlFor('switchboard_fault') },
  );
  api = client(t.url);
  // Slow enough that deliveries are in flight when the server stops.
  receiver = await startReceiver(() => ({ stallMs: 150 }));
  owner = await signupAccount(api);
  cachedKey = await createAccountKey(api, owner.token, { scopes: ['write:contacts', 'read:contacts'] });
  coldKey = await createAccountKey(api, owner.token, { scopes: ['read:contacts'] });
  await api.post('/v1/webhooks', { token: owner.token, body: { url: receiver.url, events: ['contact.created'] } });
  await t.startWorkers({ schedule: true });
}, 300_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  pgServer?.destroy();
});

const createContact = (i: number) =>
  api.post('/v1/contacts', { token: cachedKey.key, body: { name: `C${i}`, email: `c${i}@example.com` } });

describe('a Postgres outage', () => {
  it('answers 503 (never 500, never a credential error), recovers without a restart, and settles deliveries in flight', async () => {
    const created = await Promise.all(Array.from({ length: 30 }, (_, i) => createContact(i)));
    expect(created.every((r) => r.status === 201)).toBe(true);
    expect((await api.get('/v1/contacts?limit=1', { token: cachedKey.key })).status).toBe(200);

    pgServer.stop('immediate');
    const during: number[] = [];
    // Sixteen rounds of four requests, 200 ms apart: about 4 s of outage on a quiet machine.
    let i = 100;
    for (let round = 0; round < 16; round++) {
      const answers = await Promise.all([
        createContact(i++),
        api.get('/v1/contacts?limit=1', { token: cachedKey.key }),
        api.get('/v1/contacts?limit=1', { token: coldKey.key }),
        api.get('/v1/contacts?limit=1', { token: owner.token }),
      ]);
      for (const a of answers) {
        during.push(a.status);
        if (a.status === 503) expect(a.body.error).toMatchObject({ code: 'unavailable', type: 'api_error' });
        expect(JSON.stringify(a.body)).not.toMatch(/ECONNREFUSED|terminat|knex|stack|127\.0\.0\.1/i);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(during.every((s) => s === 503)).toBe(true);
    expect(during).toHaveLength(64);

    await pgServer.start();
    await waitUntil(
      async () => (await api.get('/v1/contacts?limit=1', { token: owner.token })).status === 200,
      30_000,
      'the API to recover',
    );
    expect((await api.get('/v1/contacts?limit=1', { token: coldKey.key })).status).toBe(200);
    expect((await createContact(999)).status).toBe(201);

    // Every delivery of the contacts created before the outage ends succeeded, each having arrived.
    const ids = created.map((c) => c.body.id as string);
    await waitUntil(
      async () => {
        const rows = await t.deps
          .db('webhook_deliveries')
          .where({ account_id: owner.accountId })
          .whereNot({ status: 'succeeded' });
        return rows.length === 0;
      },
      45_000,
      'every delivery to settle',
    );
    const arrived = new Set(receiver.received.map((r) => r.body.payload.id));
    for (const id of ids) expect(arrived.has(id)).toBe(true);
  }, 300_000);
});
