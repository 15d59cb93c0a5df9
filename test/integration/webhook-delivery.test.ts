import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventType } from '../../src/events/event-types.js';
import { uuidV7Time } from '../../src/platform/ids.js';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { closedPort, startReceiver, type Receiver, type Received } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Deliveries through real BullMQ workers to real HTTP receivers on 127.0.0.1. Retry delays 50/100/150 ms,
// a 400 ms timeout, and auto-disable after 3 exhausted deliveries.

let t: TestContext;
let api: Client;
let smtp: SmtpSink;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // The platform mail transport (SMTP_URL) is a real SMTP server: the owner's email is checked on disable.
  smtp = await startSmtpSink();
  t = await createTestContext({
    SMTP_URL: smtp.url,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '50,100,150',
    WEBHOOK_TIMEOUT_MS: '400',
    WEBHOOK_DISABLE_AFTER: '3',
  });
  api = client(t.url);
  await t.startWorkers();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
  await smtp?.close();
});

async function receiver(respond?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

async function subscribe(
  token: string,
  url: string,
  events: string[] = ['message.received'],
  extra: Record<string, unknown> = {},
) {
  const res = await api.post('/v1/webhooks', { token, body: { url, events, ...extra } });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

async function emit(
  accountId: string,
  type: EventType,
  payload: Record<string, unknown> = { id: 'msg_1' },
  ids: { inboxId?: string; messageId?: string } = {},
) {
  return transactWithEvents(t.deps, accountId, (_trx, e) => e({ type, payload, ...ids }));
}

// ---- an independent verifier, written from docs/adr/0018-webhook-signatures.md, not from the service code ----

function verifySwitchboard(r: Received, secret: string): boolean {
  const header = String(r.headers['x-switchboard-signature']);
  const parts = header.split(',');
  const tPart = parts.find((p) => p.startsWith('t='));
  if (!tPart) return false;
  const ts = Number(tPart.slice(2));
  if (Math.abs(Date.now() / 1000 - ts) > 300) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${ts}.${r.raw}`).digest('hex'));
  return parts
    .filter((p) => p.startsWith('v1='))
    .some((p) => {
      const got = Buffer.from(p.slice(3));
      return got.length === expected.length && timingSafeEqual(got, expected);
    });
}

function verifyStandard(r: Received, secret: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const content = `${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.raw}`;
  const expected = createHmac('sha256', key).update(content).digest('base64');
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((s) => s === `v1,${expected}`);
}

const attemptsOf = async (token: string, webhookId: string) =>
  (await api.get(`/v1/webhooks/${webhookId}/attempts?limit=100`, { token })).body.data.reverse() as any[];

describe('webhook delivery', () => {
  it('delivers the envelope with both signature schemes and the legacy header', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver(() => ({
      status: 200,
      headers: { 'x-receiver-trace': 'rcv-42', 'set-cookie': 'session=receiver-session-token; HttpOnly' },
    }));
    const wh = await subscribe(token, `${r.url}/hook`, ['message.received', 'agent.updated'], {
      legacySecret: 'my-legacy-secret-123',
    });
    const eventId = await emit(
      accountId,
      'message.received',
      { id: 'msg_1', subject: 'Hi' },
      { inboxId: 'inb_1', messageId: 'msg_1' },
    );
    const [got] = await r.waitFor(1);

    const event = await t.deps.db('events').where({ id: eventId }).first();
    expect(got!.path).toBe('/hook');
    expect(got!.body).toEqual({
      // A UUIDv7 stamped with its event's time (it names the day partition the delivery lives in).
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      event: 'message.received',
      timestamp: event.created_at.toISOString(),
      apiVersion: '2026-11-01',
      inboxId: 'inb_1',
      messageId: 'msg_1',
      payload: { id: 'msg_1', subject: 'Hi' },
    });
    expect(uuidV7Time(got!.body.id)).toEqual(event.created_at);
    expect(got!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Switchboard-Webhooks/1',
      'x-switchboard-event': 'message.received',
      'x-switchboard-delivery': got!.body.id,
      'webhook-id': got!.body.id,
    });
    expect(verifySwitchboard(got!, wh.secret)).toBe(true);
    expect(verifyStandard(got!, wh.secret)).toBe(true);
    expect(verifySwitchboard(got!, wh.secret + 'x')).toBe(false);
    expect(got!.headers['x-switchboard-signature-legacy']).toBe(
      createHmac('sha256', 'my-legacy-secret-123').update(got!.raw).digest('hex'),
    );

    // The API shows the request body as sent: its JSON text is the very body the receiver got, byte for byte.
    const path = `/v1/webhooks/${wh.id}/deliveries/${got!.body.id}`;
    const shown = await waitUntil(async () => {
      const res = await api.get(path, { token });
      return res.body.status === 'succeeded' && res;
    });
    expect(JSON.stringify(shown.body.envelope)).toBe(got!.raw);
    const listed = await api.get(`/v1/webhooks/${wh.id}/deliveries`, { token });
    const { envelope: _envelope, ...fields } = shown.body;
    expect(listed.body.data).toEqual([fields]);

    // Another account's delivery, and an id that is no delivery id, are not found.
    const stranger = await signupAccount(api);
    for (const [who, id] of [
      [stranger.token, got!.body.id],
      [token, 'not-a-uuid'],
      [token, '------------------------------------'],
      [token, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await api.get(`/v1/webhooks/${wh.id}/deliveries/${id}`, { token: who });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }

    // An event without inbox and message carries nulls.
    await emit(accountId, 'agent.updated', { id: 'agt_1' });
    const [, second] = await r.waitFor(2);
    expect(second!.body).toMatchObject({ event: 'agent.updated', inboxId: null, messageId: null });

    // During a rotation both secrets verify; afterwards the old one alone is not enough for the new secret.
    const rotated = await api.post(`/v1/webhooks/${wh.id}/rotate-secret`, { token });
    await emit(accountId, 'message.received');
    const [, , third] = await r.waitFor(3);
    expect(String(third!.headers['x-switchboard-signature']).match(/v1=/g)).toHaveLength(2);
    expect(verifySwitchboard(third!, rotated.body.secret)).toBe(true);
    expect(verifySwitchboard(third!, wh.secret)).toBe(true);
    expect(verifyStandard(third!, rotated.body.secret)).toBe(true);
    expect(verifyStandard(third!, wh.secret)).toBe(true);

    const deliveries = await waitUntil(async () => {
      const d = (await api.get(`/v1/webhooks/${wh.id}/deliveries`, { token })).body.data;
      return d.length === 3 && d.every((x: any) => x.status === 'succeeded') && d;
    });
    expect(deliveries.map((d: any) => d.id).sort()).toEqual([got, second, third].map((x) => x!.body.id).sort());
    const attempts = await attemptsOf(token, wh.id);
    expect(attempts[0]).toMatchObject({
      deliveryId: got!.body.id,
      webhookId: wh.id,
      event: 'message.received',
      attemptNumber: 1,
      status: 'succeeded',
      url: `${r.url}/hook`,
      responseStatus: 200,
      responseBody: 'ok',
      error: null,
      nextAttemptAt: null,
    });
    expect(attempts[0].id).toMatch(/^att_/);
    expect(attempts[0].durationMs).toBeGreaterThanOrEqual(0);

    // The attempt shows the headers as the receiver got them, the signatures included, and the receiver's answer
    // headers with its cookie redacted.
    const sent = attempts[0].requestHeaders as Record<string, string>;
    expect(Object.keys(sent)).toEqual(
      expect.arrayContaining([
        'content-type',
        'user-agent',
        'x-switchboard-event',
        'x-switchboard-delivery',
        'x-switchboard-signature',
        'x-switchboard-signature-legacy',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]),
    );
    for (const [name, value] of Object.entries(sent)) expect(got!.headers[name]).toBe(value);
    expect(attempts[0].responseHeaders).toMatchObject({
      'x-receiver-trace': 'rcv-42',
      'set-cookie': '[redacted]',
      'content-type': 'text/plain',
    });
    expect(JSON.stringify(attempts)).not.toContain('receiver-session-token');
    expect(JSON.stringify(attempts)).not.toContain(wh.secret);
  });

  it('sends only subscribed events of the same account', async () => {
    const a = await signupAccount(api);
    const b = await signupAccount(api);
    const r = await receiver();
    const wh = await subscribe(a.token, r.url, ['inbox.created']);
    await emit(a.accountId, 'message.received');
    await emit(b.accountId, 'inbox.created');
    await emit(a.accountId, 'inbox.created', { id: 'inb_9' });
    await emit(a.accountId, 'inbox.created', { id: 'sentinel' });
    // Deliveries are written in the emitting transaction: the subscription has exactly the two it should.
    const recorded = (await api.get(`/v1/webhooks/${wh.id}/deliveries`, { token: a.token })).body.data;
    expect(recorded).toHaveLength(2);
    // Order across events is not promised: wait for both, then compare as a set.
    const arrived = (id: string) => r.received.some((x) => x.body.payload.id === id);
    await waitUntil(() => arrived('inb_9') && arrived('sentinel'), 30_000, 'inb_9 and the sentinel');
    expect(r.received.map((x) => x.body.payload.id).sort()).toEqual(['inb_9', 'sentinel']);
    expect(r.received.find((x) => x.body.payload.id === 'inb_9')!.body).toMatchObject({ event: 'inbox.created' });
  });

  it('retries with the configured delays and the same envelope id, recording every attempt', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver((_req, i) => (i < 2 ? { status: 500, body: 'boom' } : { status: 200 }));
    const wh = await subscribe(token, r.url);
    await emit(accountId, 'message.received');
    const got = await r.waitFor(3);
    expect(new Set(got.map((g) => g.body.id)).size).toBe(1);
    const gap1 = got[1]!.at - got[0]!.at;
    const gap2 = got[2]!.at - got[1]!.at;
    // Never sooner than the configured delay (less the ±10% jitter); that it is the configured delay and not a
    // default one (seconds and minutes) the attempts' planned times below say.
    expect(gap1).toBeGreaterThanOrEqual(44);
    expect(gap2).toBeGreaterThanOrEqual(89);
    const attempts = await waitUntil(async () => {
      const a = await attemptsOf(token, wh.id);
      return a.length === 3 && a;
    });
    expect(attempts.map((a) => [a.attemptNumber, a.status, a.responseStatus, a.error])).toEqual([
      [1, 'failed', 500, 'http_status'],
      [2, 'failed', 500, 'http_status'],
      [3, 'succeeded', 200, null],
    ]);
    expect(attempts[0].responseBody).toBe('boom');
    // The attempt row and its next attempt are written in one statement on the database's clock: the gap is the
    // jittered delay itself (50 ms, then 100 ms, ±10%, each end rounded to the millisecond).
    const planned = attempts.slice(0, 2).map((a) => Date.parse(a.nextAttemptAt) - Date.parse(a.createdAt));
    expect(planned[0]).toBeGreaterThanOrEqual(44);
    expect(planned[0]).toBeLessThanOrEqual(56);
    expect(planned[1]).toBeGreaterThanOrEqual(89);
    expect(planned[1]).toBeLessThanOrEqual(111);
  });

  it('honours Retry-After on 429 only up to double the next delay', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver((_req, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '3600' } } : { status: 200 },
    );
    const wh = await subscribe(token, r.url);
    await emit(accountId, 'message.received');
    const got = await r.waitFor(2, 30_000);
    // Capped at double the next delay (50 ms, so 100 ms): nowhere near the hour the receiver asked for, as the
    // attempt planned it on the database's clock.
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(95);
    const [first] = await waitUntil(async () => {
      const a = await attemptsOf(token, wh.id);
      return a.length === 2 && a;
    });
    const planned = Date.parse(first.nextAttemptAt) - Date.parse(first.createdAt);
    expect(planned).toBeGreaterThanOrEqual(99);
    expect(planned).toBeLessThanOrEqual(101);
  });

  it('records distinct errors for 5xx, timeout, refused connection and redirect, then exhausts', async () => {
    const { token, accountId } = await signupAccount(api);
    const r5xx = await receiver(() => ({ status: 503, body: 'x'.repeat(5000) }));
    const slow = await receiver(() => ({ stallMs: 1500 }));
    const redirect = await receiver(() => ({ status: 301, headers: { location: 'https://example.net/' } }));
    const refused = `http://127.0.0.1:${await closedPort()}/`;
    const cases = [
      [await subscribe(token, r5xx.url), 'http_status'],
      [await subscribe(token, slow.url), 'timeout'],
      [await subscribe(token, refused), 'connection_refused'],
      [await subscribe(token, redirect.url), 'redirect'],
    ] as const;
    await emit(accountId, 'message.received');
    for (const [wh, error] of cases) {
      const attempts = await waitUntil(
        async () => {
          const a = await attemptsOf(token, wh.id);
          return a.length === 4 && a;
        },
        30_000,
        `4 attempts for ${error}`,
      );
      expect(attempts.map((a) => a.error)).toEqual([error, error, error, error]);
      expect(attempts.map((a) => a.attemptNumber)).toEqual([1, 2, 3, 4]);
      expect(attempts.map((a) => a.nextAttemptAt === null)).toEqual([false, false, false, true]);
      if (error === 'http_status') expect(attempts[0].responseBody).toHaveLength(4096);
      if (error === 'redirect') expect(attempts[0].responseStatus).toBe(301);
      // The receiver answers after 1.5 s: an attempt that waited for it would have recorded its answer.
      if (error === 'timeout') expect(attempts[0].durationMs).toBeGreaterThanOrEqual(400);
      const deliveries = await waitUntil(async () => {
        const d = (await api.get(`/v1/webhooks/${wh.id}/deliveries`, { token })).body.data;
        return d[0]?.status === 'exhausted' && d;
      });
      expect(deliveries[0]).toMatchObject({ attempts: 4, lastError: error });
    }
    // The redirect target was never contacted; one exhausted delivery does not disable.
    expect((await api.get(`/v1/webhooks/${cases[0][0].id}`, { token })).body).toMatchObject({
      status: 'active',
      consecutiveFailures: 1,
    });
  });

  it('disables exactly once when 40 deliveries exhaust together, then enable + recoverSince re-sends them', async () => {
    const { token, accountId, email } = await signupAccount(api);
    let healthy = false;
    const r = await receiver(() => (healthy ? { status: 200 } : { status: 500 }));
    const wh = await subscribe(token, r.url);
    const since = new Date(Date.now() - 1000).toISOString();
    await transactWithEvents(t.deps, accountId, async (_trx, e) => {
      for (let i = 0; i < 40; i++) await e({ type: 'message.received', payload: { n: i } });
    });
    await waitUntil(
      async () => (await api.get(`/v1/webhooks/${wh.id}`, { token })).body.status === 'disabled',
      30_000,
      'disable',
    );
    // Let every in-flight retry finish or stop.
    await waitUntil(
      async () => (await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id, status: 'pending' })).length === 0,
      30_000,
      'retries to stop',
    );
    const notes = (await api.get('/v1/notifications?limit=100', { token })).body.data.filter(
      (n: any) => n.kind === 'webhook.disabled',
    );
    expect(notes).toHaveLength(1);
    await waitUntil(
      () => smtp.received.some((m) => m.to.includes(email) && m.raw.includes(wh.id)),
      30_000,
      'owner email',
    );
    expect(smtp.received.filter((m) => m.to.includes(email) && m.raw.includes(wh.id))).toHaveLength(1);
    expect(JSON.stringify(notes[0])).toContain(wh.id);
    const state = (await api.get(`/v1/webhooks/${wh.id}`, { token })).body;
    expect(state.status).toBe('disabled');
    expect(state.consecutiveFailures).toBeGreaterThanOrEqual(3);

    // New events are not sent to a disabled subscription: it gets no delivery row, so nothing can send one.
    const before = r.received.length;
    const later = await emit(accountId, 'message.received');
    expect(await t.deps.db('webhook_deliveries').where({ event_id: later })).toHaveLength(0);

    healthy = true;
    const enabled = await api.post(`/v1/webhooks/${wh.id}/enable`, { token, body: { recoverSince: since } });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ status: 'active', consecutiveFailures: 0, recovered: 40 });
    const ids = new Set(r.received.slice(0, before).map((x) => x.body.id));
    await waitUntil(
      async () =>
        (await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id, status: 'succeeded' })).length === 40,
      30_000,
      'recovery',
    );
    const recoveredIds = new Set(r.received.slice(before).map((x) => x.body.id));
    expect(recoveredIds.size).toBe(40);
    for (const id of recoveredIds) expect(ids.has(id)).toBe(true);
  });

  it('disables at once on 410 Gone', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver(() => ({ status: 410 }));
    const wh = await subscribe(token, r.url);
    await emit(accountId, 'message.received');
    await waitUntil(
      async () => (await api.get(`/v1/webhooks/${wh.id}`, { token })).body.status === 'disabled',
      30_000,
      '410 disable',
    );
    // Final at once, with no retry armed: nothing more can be sent.
    expect(await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id })).toMatchObject([
      { status: 'failed', attempts: 1, next_attempt_at: null },
    ]);
    expect(r.received).toHaveLength(1);
    const notes = (await api.get('/v1/notifications', { token })).body.data;
    expect(notes.filter((n: any) => n.kind === 'webhook.disabled')).toHaveLength(1);
    expect((await api.post(`/v1/webhooks/${wh.id}/test`, { token })).status).toBe(409);
  });

  it('redeliver sends the same envelope id again; test sends webhook.test to that subscription alone', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    const other = await receiver();
    const wh = await subscribe(token, r.url);
    await subscribe(token, other.url);
    await emit(accountId, 'message.received');
    const [first] = await r.waitFor(1);
    await other.waitFor(1);
    await waitUntil(async () => (await attemptsOf(token, wh.id)).length === 1);
    const res = await api.post(`/v1/webhooks/${wh.id}/deliveries/${first!.body.id}/redeliver`, { token });
    expect(res.status).toBe(202);
    const [, again] = await r.waitFor(2);
    expect(again!.body).toEqual({ ...first!.body });
    expect(again!.headers['x-switchboard-delivery']).toBe(first!.body.id);
    const attempts = await waitUntil(async () => {
      const a = await attemptsOf(token, wh.id);
      return a.length === 2 && a;
    });
    expect(attempts.map((a) => [a.deliveryId, a.attemptNumber])).toEqual([
      [first!.body.id, 1],
      [first!.body.id, 2],
    ]);
    expect(
      (await api.post(`/v1/webhooks/${wh.id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`, { token }))
        .status,
    ).toBe(404);

    const test = await api.post(`/v1/webhooks/${wh.id}/test`, { token });
    expect(test.status).toBe(202);
    const [, , ping] = await r.waitFor(3);
    expect(ping!.body).toMatchObject({
      id: test.body.deliveryId,
      event: 'webhook.test',
      payload: { webhookId: wh.id },
    });
    // The test event has one delivery, to this subscription: the other one has nothing to receive.
    expect(
      (await t.deps.db('webhook_deliveries').where({ event_id: test.body.eventId })).map((d) => d.webhook_id),
    ).toEqual([wh.id]);
    expect(other.received).toHaveLength(1);

    // ?deliveryId= narrows the attempts to one delivery; a malformed one is a 400, not a silently unfiltered list.
    await waitUntil(async () => (await attemptsOf(token, wh.id)).length === 3);
    const narrowed = await api.get(`/v1/webhooks/${wh.id}/attempts?deliveryId=${first!.body.id}`, { token });
    expect(narrowed.body.data.map((a: { deliveryId: string }) => a.deliveryId)).toEqual([
      first!.body.id,
      first!.body.id,
    ]);
    const malformed = await api.get(`/v1/webhooks/${wh.id}/attempts?deliveryId=not-a-uuid`, { token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details.fields[0].field).toBe('deliveryId');
  });
});
