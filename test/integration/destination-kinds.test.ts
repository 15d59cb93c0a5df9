import { createHmac, timingSafeEqual } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { brokerMissing } from '../helpers/brokers.js';
import type { Arrived, Destination, DestinationKindDriver } from '../helpers/destinations/driver.js';
import { httpDriver } from '../helpers/destinations/http.js';
import { natsDriver } from '../helpers/destinations/nats.js';
import { pollDriver } from '../helpers/destinations/poll.js';
import { rabbitmqDriver } from '../helpers/destinations/rabbitmq.js';
import { redisDriver } from '../helpers/destinations/redis.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// One behavioural table, run per destination kind: whatever the transport, a delivery arrives signed and
// verifiable, is retried after a failure with every attempt recorded, keeps the order of its ordering key, can be
// redelivered, and no broker credential is ever shown, logged, recorded or put in job data.
//
// A kind joins the table with a driver (test/helpers/destinations/driver.ts): `destination()` makes a fresh one
// and gives the POST /v1/webhooks fields for it; `waitFor(n)` reads back what arrived (headers lower-case, the raw
// body, where it arrived and the message id the transport set); `refuse()` / `accept()` make its attempts fail and
// succeed again; `secrets()` names what must never leak. A pulled kind (poll) reads what arrived by polling; it
// cannot refuse, so the rows about retries, holding an ordering key and disabling do not apply to it (its own
// file, webhook-poll.test.ts, covers its order and retention).

// What a refused attempt records, by kind (a broker that routes nowhere: unroutable; Redis refuses XADD: NOPERM).
const REFUSED: Record<string, string> = { http: 'http_status', redis: 'auth_failed' };

const drivers: Array<DestinationKindDriver & { redeliverStoredOnce?: boolean }> = [
  httpDriver(),
  rabbitmqDriver(),
  // JetStream drops a message whose Nats-Msg-Id it stored within the stream's duplicate window: a redeliver of
  // the same delivery id is acknowledged as a duplicate and stored once.
  Object.assign(natsDriver(), { redeliverStoredOnce: true }),
  pollDriver(() => t.url),
  redisDriver(),
];

let t: TestContext;
let api: Client;
const logs: string[] = [];

beforeAll(async () => {
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')));
  t = await createTestContext(
    {
      LOG_LEVEL: 'debug',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '100,200,400,800,1600,3200',
      WEBHOOK_TIMEOUT_MS: '5000',
      // Only the disable case exhausts deliveries; the others recover within a round.
      WEBHOOK_DISABLE_AFTER: '2',
    },
    { logTo: sink },
  );
  api = client(t.url);
  await t.startWorkers();
}, 300_000);
afterAll(async () => {
  await t?.close();
});

/** X-Switchboard-Signature over the raw body, as docs/webhook-signatures.md#verifying-signatures tells receivers. */
function verifiesSwitchboard(m: Arrived, secret: string): boolean {
  const parts = m.headers['x-switchboard-signature']!.split(',');
  const ts = Number(parts.find((p) => p.startsWith('t='))?.slice(2));
  if (!ts || Math.abs(Date.now() / 1000 - ts) > 300) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${ts}.${m.raw}`).digest('hex'));
  return parts
    .filter((p) => p.startsWith('v1='))
    .some(
      (p) => Buffer.from(p.slice(3)).length === expected.length && timingSafeEqual(Buffer.from(p.slice(3)), expected),
    );
}

/** webhook-signature (Standard Webhooks): HMAC of `id.timestamp.body` with the bytes after whsec_. */
function verifiesStandard(m: Arrived, secret: string): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = `${m.headers['webhook-id']}.${m.headers['webhook-timestamp']}.${m.raw}`;
  const expected = Buffer.from(createHmac('sha256', key).update(signed).digest('base64'));
  return m.headers['webhook-signature']!.split(' ').some((s) => {
    const got = Buffer.from(s.replace(/^v1,/, ''));
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

async function attemptsOf(token: string, webhookId: string) {
  const res = await api.get(`/v1/webhooks/${webhookId}/attempts?limit=100`, { token });
  expect(res.status).toBe(200);
  return (res.body.data as Array<Record<string, any>>).slice().reverse();
}

const emitContact = (accountId: string, id: string, n: number) =>
  transactWithEvents(t.deps, accountId, (_trx, emit) => emit({ type: 'contact.updated', payload: { id, n } }));

for (const driver of drivers) {
  const missing = driver.kind === 'rabbitmq' || driver.kind === 'nats' ? brokerMissing(driver.kind) : null;
  describe.skipIf(missing !== null)(`destination kind ${driver.kind}`, () => {
    let account: { token: string; accountId: string };
    const made: Destination[] = [];
    const subscriptions: string[] = [];

    beforeAll(async () => {
      await driver.start();
      account = await signupAccount(api);
    }, 300_000);
    afterAll(async () => {
      await Promise.all(made.map((d) => d.close()));
      await driver.stop();
    }, 300_000);

    async function subscribe(events: string[], extra: Record<string, unknown> = {}) {
      const destination = await driver.destination();
      made.push(destination);
      const res = await api.post('/v1/webhooks', {
        token: account.token,
        body: { ...destination.fields, events, ...extra },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      destination.attach?.(res.body);
      subscriptions.push(res.body.id);
      return { destination, id: res.body.id as string, secret: res.body.secret as string, created: res.body };
    }

    it('delivers the envelope signed, verifiable with the secret, as the kind sends it', async () => {
      const { destination, id, secret, created } = await subscribe(['contact.updated']);
      expect(created.kind).toBe(driver.kind);
      await emitContact(account.accountId, 'c-signed', 0);
      const [m] = await destination.waitFor(1);
      expect(m!.body).toMatchObject({ event: 'contact.updated', payload: { id: 'c-signed', n: 0 } });
      expect(m!.messageId).toBe(m!.body.id);
      expect(m!.headers['webhook-id']).toBe(m!.body.id);
      if (!driver.pulled) expect(m!.headers['content-type']).toBe('application/json');
      expect(m!.address).toBe(destination.addressOf('contact.updated'));
      expect(verifiesSwitchboard(m!, secret)).toBe(true);
      expect(verifiesStandard(m!, secret)).toBe(true);
      // Tampered bytes do not verify.
      expect(verifiesSwitchboard({ ...m!, raw: m!.raw.replace('c-signed', 'c-forged') }, secret)).toBe(false);
      if (driver.kind === 'rabbitmq') expect(m!.headers['delivery-mode']).toBe('2');
      const attempts = await waitUntil(
        async () => {
          const list = await attemptsOf(account.token, id);
          return list.length === 1 && list[0]!.status === 'succeeded' && list;
        },
        30_000,
        'the succeeded attempt',
      );
      expect(attempts[0]).toMatchObject({ deliveryId: m!.body.id, attemptNumber: 1, error: null });
    });

    if (!driver.pulled)
      it('retries a refused delivery with backoff, recording each attempt, until it arrives', async () => {
        const { destination, id } = await subscribe(['contact.updated']);
        await destination.refuse();
        await emitContact(account.accountId, 'c-retry', 0);
        const failed = await waitUntil(
          async () => {
            const list = await attemptsOf(account.token, id);
            return list.length >= 2 && list.every((a) => a.status === 'failed') && list;
          },
          30_000,
          'two failed attempts',
        );
        expect(failed[0]!.error).toBe(REFUSED[driver.kind] ?? 'unroutable');
        expect(failed[0]!.nextAttemptAt).not.toBeNull();
        await destination.accept();
        const [m] = await destination.waitFor(1);
        expect(m!.body.payload).toEqual({ id: 'c-retry', n: 0 });
        const all = await waitUntil(
          async () => {
            const list = await attemptsOf(account.token, id);
            return list.at(-1)?.status === 'succeeded' && list;
          },
          30_000,
          'the succeeded attempt after the failures',
        );
        expect(all.map((a) => a.attemptNumber)).toEqual(all.map((_a, i) => i + 1));
        expect(new Set(all.map((a) => a.deliveryId)).size).toBe(1);
        // Endpoint health counts them too.
        // Endpoint health counts them too (its figures are written a moment after the attempts).
        await waitUntil(
          async () => {
            const stats = await api.get(`/v1/webhooks/${id}/stats?window=1h`, { token: account.token });
            return stats.body.succeeded === 1 && stats.body.failed === all.length - 1;
          },
          30_000,
          'the stats to count every attempt',
        );
      });

    if (!driver.pulled)
      it('sends the deliveries of one ordering key in commit order, a failure holding the ones behind it', async () => {
        const { destination, id } = await subscribe(['contact.updated'], { ordering: 'key' });
        await destination.refuse();
        for (let n = 0; n < 5; n++) await emitContact(account.accountId, 'c-ordered', n);
        await waitUntil(async () => (await attemptsOf(account.token, id)).length >= 2, 30_000, 'failed attempts');
        await destination.accept();
        const arrived = await destination.waitFor(5);
        expect(arrived.map((m) => m.body.payload.n)).toEqual([0, 1, 2, 3, 4]);
      });

    it('redelivers a delivery with the same envelope id', async () => {
      const { destination, id } = await subscribe(['contact.updated']);
      await emitContact(account.accountId, 'c-again', 0);
      const [first] = await destination.waitFor(1);
      const deliveryId = first!.body.id as string;
      await waitUntil(async () => (await attemptsOf(account.token, id)).length === 1, 30_000, 'the first attempt');
      const res = await api.post(`/v1/webhooks/${id}/deliveries/${deliveryId}/redeliver`, { token: account.token });
      expect(res.status).toBe(202);
      // A pulled delivery is attempted when its consumer polls it again.
      if (driver.pulled) await destination.waitFor(2);
      const attempts = await waitUntil(
        async () => {
          const list = await attemptsOf(account.token, id);
          return list.length === 2 && list[1]!.status === 'succeeded' && list;
        },
        30_000,
        'the redelivery attempt',
      );
      expect(attempts[1]!.deliveryId).toBe(deliveryId);
      if (driver.redeliverStoredOnce) {
        expect(JSON.parse(attempts[1]!.responseBody)).toMatchObject({ duplicate: true });
        expect(await destination.waitFor(1)).toHaveLength(1);
      } else {
        const [, again] = await destination.waitFor(2);
        expect(again!.body.id).toBe(deliveryId);
        expect(again!.raw).toBe(first!.raw);
      }
    });

    if (!driver.pulled)
      it('disables after consecutive exhausted deliveries, says so, and recoverSince sends them again', async () => {
        const { destination, id } = await subscribe(['contact.updated']);
        await destination.refuse();
        const since = new Date(Date.now() - 1000).toISOString();
        await emitContact(account.accountId, 'c-exhaust', 0);
        await emitContact(account.accountId, 'c-exhaust', 1);
        const path = `/v1/webhooks/${id}`;
        await waitUntil(
          async () => (await api.get(path, { token: account.token })).body.status === 'disabled',
          60_000,
          'the automatic disable',
        );
        const disabled = await waitUntil(
          () => t.deps.db('events').where({ account_id: account.accountId, type: 'webhook.disabled' }),
          30_000,
          'the webhook.disabled event',
        );
        expect(JSON.stringify(disabled.map((e) => e.payload))).toContain(id);
        expect(destination.arrived()).toHaveLength(0);
        await destination.accept();
        const enabled = await api.post(`${path}/enable`, { token: account.token, body: { recoverSince: since } });
        expect(enabled.body).toMatchObject({ status: 'active', recovered: 2 });
        const arrived = await destination.waitFor(2);
        expect(arrived.map((m) => m.body.payload.n).sort()).toEqual([0, 1]);
      });

    it('never shows, records, logs or queues a broker or poll credential', async () => {
      const secrets = driver.secrets();
      if (driver.kind === 'http') return expect(secrets).toEqual([]);
      expect(secrets.length).toBeGreaterThan(0);
      expect(secrets.every((s) => s.length >= 12)).toBe(true);
      const list = await api.get('/v1/webhooks?limit=100', { token: account.token });
      const one = await api.get(`/v1/webhooks/${subscriptions[0]}`, { token: account.token });
      expect(one.body).toMatchObject({ kind: driver.kind });
      const shown = {
        rabbitmq: /^amqp:\/\/sb-publisher@127\.0\.0\.1:/,
        nats: /^nats:\/\//,
        poll: /^\/v1\/webhooks\/wh_/,
        redis: /^redis:\/\/publisher@127\.0\.0\.1:/,
      };
      expect(one.body.url).toMatch(shown[driver.kind as keyof typeof shown]);
      const attempts = await Promise.all(subscriptions.map((s) => attemptsOf(account.token, s)));
      const rows = await t.deps.db('webhook_attempts').where({ account_id: account.accountId });
      const audit = await t.deps.db('audit_log').where({ account_id: account.accountId });
      const jobs: string[] = [];
      for (const key of await t.deps.redis.keys(`${t.deps.config.bullmqPrefix}*`)) {
        const type = await t.deps.redis.type(key);
        if (type === 'hash') jobs.push(JSON.stringify(await t.deps.redis.hgetall(key)));
      }
      const everything = [list.body, one.body, attempts, rows, audit, jobs, logs.join('')].map((x) =>
        typeof x === 'string' ? x : JSON.stringify(x),
      );
      for (const secret of secrets) for (const text of everything) expect(text).not.toContain(secret);
      if (driver.pulled) {
        // Its polls were answered and recorded, so the records' silence on the credential means something.
        expect(JSON.stringify(rows)).toContain('/poll');
        return;
      }
      // The log was written (the refused publishes among it), so its silence on the secret means something.
      expect(logs.join('')).toContain(`${driver.kind} publish failed`);
      expect(JSON.stringify(rows)).toContain(`${String(one.body.url).split('//')[0]}//`);
    });
  });
}
