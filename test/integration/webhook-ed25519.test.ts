import { createHmac } from 'node:crypto';
import { verifyAsync } from '@noble/ed25519';
import { verify, WebhookVerificationError } from '@switchboard/webhooks';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventType } from '../../src/events/event-types.js';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startReceiver, type Receiver, type Received } from '../helpers/receiver.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { verifySwitchboardSignature } from '../helpers/webhook-verify.js';
import { waitUntil } from '../helpers/wait.js';

// Standard Webhooks `v1a` (ed25519) signing, end to end: subscriptions made with the scheme (API, portal, stream),
// deliveries to a real receiver on 127.0.0.1 verified with the whpk_ key alone, by an independent implementation
// (@noble/ed25519) and by the receiver library (@switchboard/webhooks), rotation and changes of scheme with their
// overlap, bad input refused with nothing changed, and the secret key found in no answer and no recorded attempt.

let t: TestContext;
let api: Client;
const receivers: Receiver[] = [];
/** The raw text of every answer this file got from the API: no secret key may appear in any of it. */
const answers: string[] = [];

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_DELAYS_MS: '50,100' });
  api = client(t.url);
  await t.startWorkers();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
});

async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** A call whose raw answer text is kept for the leak check; the body parsed. */
async function send(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(t.url + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  answers.push(text);
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const emit = (accountId: string, type: EventType = 'message.received') =>
  transactWithEvents(t.deps, accountId, (_trx, e) => e({ type, payload: { id: 'msg_1' } }));

const rowOf = (id: string) => t.deps.db('webhooks').where({ id }).first();

// ---- an independent verifier, written from docs/webhook-signatures.md#verifying-an-ed25519-subscription ----

const publicKeyBytes = (whpk: string) => {
  expect(whpk).toMatch(/^whpk_/);
  const bytes = Buffer.from(whpk.slice('whpk_'.length), 'base64');
  expect(bytes).toHaveLength(32);
  return bytes;
};

/** The `v1a,` entries of a delivery's webhook-signature, each checked against `whpk` over id.timestamp.body. */
async function v1aResults(r: Received, whpk: string): Promise<boolean[]> {
  const content = new TextEncoder().encode(`${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.raw}`);
  const entries = String(r.headers['webhook-signature'])
    .split(' ')
    .filter((e) => e.startsWith('v1a,'));
  return Promise.all(entries.map((e) => verifyAsync(Buffer.from(e.slice(4), 'base64'), content, publicKeyBytes(whpk))));
}

const verifiesV1a = async (r: Received, whpk: string) => (await v1aResults(r, whpk)).some(Boolean);

/** What the receiver library (@switchboard/webhooks) answers for `keys`: the envelope id or the reason. */
async function libraryVerdict(r: Received, keys: string | string[]): Promise<string> {
  try {
    return (await verify(r.raw, r.headers, keys)).id;
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.reason;
    throw err;
  }
}

function verifiesV1(r: Received, whsec: string): boolean {
  const key = Buffer.from(whsec.replace(/^whsec_/, ''), 'base64');
  const content = `${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.raw}`;
  const expected = `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
  return String(r.headers['webhook-signature']).split(' ').includes(expected);
}

const versions = (r: Received) =>
  String(r.headers['webhook-signature'])
    .split(' ')
    .map((e) => e.split(',')[0]);

/** The subscription's current and previous keys as stored (sealed), opened: what must never leave the service. */
async function secretMaterial(id: string): Promise<string[]> {
  const row = await rowOf(id);
  const opened = [row.secret_sealed, row.previous_secret_sealed]
    .filter(Boolean)
    .map((s: string) => t.deps.sealers.webhook.open(s));
  // The whole whsk_, its base64 body, and the seed's base64 alone (the first 32 bytes).
  return opened
    .filter((s) => s.startsWith('whsk_'))
    .flatMap((s) => {
      const body = s.slice('whsk_'.length);
      return [s, body, Buffer.from(body, 'base64').subarray(0, 32).toString('base64')];
    });
}

async function expectNoSecretIn(id: string, texts: string[]) {
  const material = await secretMaterial(id);
  expect(material.length).toBeGreaterThan(0);
  for (const text of texts) for (const m of material) expect(text).not.toContain(m);
}

describe('ed25519 subscriptions', () => {
  it('deliver v1a signatures that verify with the whpk_ key alone, with no X-Switchboard-Signature', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    // Through the OpenAPI-checked client: the answer matches the document.
    const created = await api.post('/v1/webhooks', {
      token,
      body: { url: `${r.url}/hook`, events: ['message.received'], signatureScheme: 'ed25519' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ signatureScheme: 'ed25519', secret: null, previousPublicKey: null });
    const whpk = created.body.publicKey as string;
    publicKeyBytes(whpk);
    answers.push(JSON.stringify(created.body));

    // The public key is public: every later read shows it.
    const got = await send('GET', `/v1/webhooks/${created.body.id}`, token);
    expect(got.body).toMatchObject({ signatureScheme: 'ed25519', publicKey: whpk });
    expect((await send('GET', '/v1/webhooks', token)).body.data[0].publicKey).toBe(whpk);

    await emit(accountId);
    const [delivery] = await r.waitFor(1);
    expect(delivery!.headers['x-switchboard-signature']).toBeUndefined();
    expect(delivery!.headers['x-switchboard-signature-legacy']).toBeUndefined();
    expect(delivery!.headers['webhook-id']).toBe(delivery!.body.id);
    expect(Number(delivery!.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 300);
    expect(versions(delivery!)).toEqual(['v1a']);
    expect(await v1aResults(delivery!, whpk)).toEqual([true]);
    expect(await libraryVerdict(delivery!, whpk)).toBe(delivery!.body.id);
    // Another subscription's public key does not verify it.
    const other = await send('POST', '/v1/webhooks', token, {
      url: `${r.url}/other`,
      events: ['inbox.created'],
      signatureScheme: 'ed25519',
    });
    expect(await verifiesV1a(delivery!, other.body.publicKey)).toBe(false);

    // The recorded attempt shows the headers as sent: the signature, never the key.
    const attempts = await waitUntil(async () => {
      const res = await send('GET', `/v1/webhooks/${created.body.id}/attempts`, token);
      return res.body.data.length === 1 && res.body.data;
    });
    expect(attempts[0].requestHeaders['webhook-signature']).toBe(delivery!.headers['webhook-signature']);
    expect(attempts[0].requestHeaders['x-switchboard-signature']).toBeUndefined();
    const deliveries = await send('GET', `/v1/webhooks/${created.body.id}/deliveries`, token);
    const stored = await t.deps.db('webhook_attempts').where({ webhook_id: created.body.id });
    await expectNoSecretIn(created.body.id, [
      ...answers,
      JSON.stringify(deliveries.body),
      JSON.stringify(stored.map((a: Record<string, unknown>) => a.request_headers)),
    ]);
  });

  it('rotate: two v1a entries during the overlap (old and new key), then the new key alone', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    const created = await send('POST', '/v1/webhooks', token, {
      url: `${r.url}/hook`,
      events: ['message.received'],
      signatureScheme: 'ed25519',
    });
    const id = created.body.id as string;
    const oldKey = created.body.publicKey as string;

    const rotated = await api.post(`/v1/webhooks/${id}/rotate-secret`, {
      token,
      body: { signatureScheme: 'ed25519' },
    });
    answers.push(JSON.stringify(rotated.body));
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id, secret: null, signatureScheme: 'ed25519' });
    const newKey = rotated.body.publicKey as string;
    expect(newKey).not.toBe(oldKey);
    const overlap = Date.parse(rotated.body.previousSecretExpiresAt) - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3600_000);
    expect((await send('GET', `/v1/webhooks/${id}`, token)).body).toMatchObject({
      publicKey: newKey,
      previousPublicKey: oldKey,
      previousSecretExpiresAt: rotated.body.previousSecretExpiresAt,
    });

    await emit(accountId);
    const [during] = await r.waitFor(1);
    expect(versions(during!)).toEqual(['v1a', 'v1a']);
    // The first entry is the new key's, the second the old one's: each verifies with its own key only.
    expect(await v1aResults(during!, newKey)).toEqual([true, false]);
    expect(await v1aResults(during!, oldKey)).toEqual([false, true]);
    // The receiver library takes either key during the overlap.
    expect(await libraryVerdict(during!, newKey)).toBe(during!.body.id);
    expect(await libraryVerdict(during!, oldKey)).toBe(during!.body.id);
    expect(during!.headers['x-switchboard-signature']).toBeUndefined();

    // Past the overlap (moved there as the key-rotation tests do: the expiry set in the past), the new key alone.
    await t.deps
      .db('webhooks')
      .where({ id })
      .update({ previous_secret_expires_at: new Date(Date.now() - 1000) });
    expect((await send('GET', `/v1/webhooks/${id}`, token)).body).toMatchObject({
      previousPublicKey: null,
      previousSecretExpiresAt: null,
    });
    await emit(accountId);
    const [, after] = await r.waitFor(2);
    expect(versions(after!)).toEqual(['v1a']);
    expect(await v1aResults(after!, newKey)).toEqual([true]);
    expect(await verifiesV1a(after!, oldKey)).toBe(false);
    expect(await libraryVerdict(after!, newKey)).toBe(after!.body.id);
    expect(await libraryVerdict(after!, oldKey)).toBe('no_matching_signature');

    // A rotation with no body rotates too (the scheme is the subscription's).
    const again = await send('POST', `/v1/webhooks/${id}/rotate-secret`, token);
    expect(again.status).toBe(200);
    expect(again.body.publicKey).toMatch(/^whpk_/);
    await expectNoSecretIn(id, answers);
  });

  it('PATCH to ed25519 and back: the old key keeps signing beside the new one for the overlap', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    const created = await send('POST', '/v1/webhooks', token, { url: `${r.url}/hook`, events: ['message.received'] });
    const id = created.body.id as string;
    expect(created.body).toMatchObject({ signatureScheme: 'hmac-sha256', publicKey: null });
    const whsec = created.body.secret as string;

    const toEd = await api.patch(`/v1/webhooks/${id}`, { token, body: { signatureScheme: 'ed25519' } });
    answers.push(JSON.stringify(toEd.body));
    expect(toEd.status).toBe(200);
    expect(toEd.body).toMatchObject({ signatureScheme: 'ed25519', secret: null, previousPublicKey: null });
    expect(toEd.body.previousSecretExpiresAt).not.toBeNull();
    const whpk = toEd.body.publicKey as string;

    await emit(accountId);
    const [first] = await r.waitFor(1);
    // The new ed25519 key first, the old HMAC secret beside it: a receiver still holding whsec_ keeps verifying.
    expect(versions(first!)).toEqual(['v1a', 'v1']);
    expect(await verifiesV1a(first!, whpk)).toBe(true);
    expect(verifiesV1(first!, whsec)).toBe(true);
    expect(verifySwitchboardSignature(first!, whsec)).toBe(true);

    const back = await api.patch(`/v1/webhooks/${id}`, { token, body: { signatureScheme: 'hmac-sha256' } });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ signatureScheme: 'hmac-sha256', publicKey: null, previousPublicKey: whpk });
    const newSecret = back.body.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(whsec);
    await emit(accountId);
    const [, second] = await r.waitFor(2);
    expect(versions(second!)).toEqual(['v1', 'v1a']);
    expect(verifySwitchboardSignature(second!, newSecret)).toBe(true);
    expect(String(second!.headers['x-switchboard-signature']).match(/v1=/g)).toHaveLength(1);
    expect(verifiesV1(second!, newSecret)).toBe(true);
    expect(await verifiesV1a(second!, whpk)).toBe(true);

    await t.deps
      .db('webhooks')
      .where({ id })
      .update({ previous_secret_expires_at: new Date(Date.now() - 1000) });
    await emit(accountId);
    const [, , third] = await r.waitFor(3);
    expect(versions(third!)).toEqual(['v1']);
    expect(verifySwitchboardSignature(third!, newSecret)).toBe(true);

    // The same scheme again changes no key.
    const same = await send('PATCH', `/v1/webhooks/${id}`, token, { signatureScheme: 'hmac-sha256' });
    expect(same.body.secret).toBeNull();
    expect((await rowOf(id)).previous_public_key).toBe(whpk);
  });

  it('HMAC subscriptions sign as before: X-Switchboard-Signature and v1 only, no public key', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    const created = await api.post('/v1/webhooks', {
      token,
      body: { url: `${r.url}/hook`, events: ['message.received'], signatureScheme: 'hmac-sha256' },
    });
    expect(created.body).toMatchObject({ signatureScheme: 'hmac-sha256', publicKey: null });
    await emit(accountId);
    const [got] = await r.waitFor(1);
    expect(versions(got!)).toEqual(['v1']);
    expect(verifySwitchboardSignature(got!, created.body.secret)).toBe(true);
    expect(verifiesV1(got!, created.body.secret)).toBe(true);
    const rotated = await api.post(`/v1/webhooks/${created.body.id}/rotate-secret`, {
      token,
      body: { signatureScheme: 'hmac-sha256' },
    });
    expect(rotated.body).toMatchObject({ signatureScheme: 'hmac-sha256', publicKey: null });
    expect(rotated.body.secret).toMatch(/^whsec_/);
  });
});

describe('bad input changes nothing', () => {
  it('an unknown scheme on create or PATCH is a 400 naming signatureScheme', async () => {
    const { token } = await signupAccount(api);
    const count = async () => Number((await t.deps.db('webhooks').count({ n: '*' }).first())!.n);
    const before = await count();
    for (const signatureScheme of ['rsa', 'ED25519', 'v1a', '', null, 1]) {
      const res = await send('POST', '/v1/webhooks', token, {
        url: 'https://example.com/hook',
        events: ['message.received'],
        signatureScheme,
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain('signatureScheme');
    }
    expect(await count()).toBe(before);

    const made = await send('POST', '/v1/webhooks', token, {
      url: 'https://example.com/hook',
      events: ['message.received'],
    });
    const kept = await rowOf(made.body.id);
    const res = await send('PATCH', `/v1/webhooks/${made.body.id}`, token, {
      description: 'changed',
      signatureScheme: 'hmac-sha512',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields[0].field).toBe('signatureScheme');
    expect(await rowOf(made.body.id)).toEqual(kept);
  });

  it('rotate-secret asking for a scheme the subscription does not use is a 400 naming signatureScheme', async () => {
    const { token } = await signupAccount(api);
    for (const [scheme, asked] of [
      ['ed25519', 'hmac-sha256'],
      ['hmac-sha256', 'ed25519'],
      ['ed25519', 'nope'],
    ]) {
      const made = await send('POST', '/v1/webhooks', token, {
        url: 'https://example.com/hook',
        events: ['message.received'],
        signatureScheme: scheme,
      });
      const kept = await rowOf(made.body.id);
      const res = await send('POST', `/v1/webhooks/${made.body.id}/rotate-secret`, token, { signatureScheme: asked });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.fields[0].field).toBe('signatureScheme');
      expect(await rowOf(made.body.id)).toEqual(kept);
    }
  });

  it('a legacySecret on an ed25519 subscription is a 400 naming legacySecret', async () => {
    const { token } = await signupAccount(api);
    const legacySecret = 'legacy-secret-0123456789';
    const both = await send('POST', '/v1/webhooks', token, {
      url: 'https://example.com/hook',
      events: ['message.received'],
      signatureScheme: 'ed25519',
      legacySecret,
    });
    expect(both.status).toBe(400);
    expect(both.body.error.details.fields[0].field).toBe('legacySecret');

    const hmac = await send('POST', '/v1/webhooks', token, {
      url: 'https://example.com/hook',
      events: ['message.received'],
      legacySecret,
    });
    const kept = await rowOf(hmac.body.id);
    const refused = await send('PATCH', `/v1/webhooks/${hmac.body.id}`, token, { signatureScheme: 'ed25519' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields[0].field).toBe('legacySecret');
    expect(await rowOf(hmac.body.id)).toEqual(kept);
    // Removing it in the same change is accepted.
    const moved = await send('PATCH', `/v1/webhooks/${hmac.body.id}`, token, {
      signatureScheme: 'ed25519',
      legacySecret: null,
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ signatureScheme: 'ed25519', hasLegacySecret: false });
    const setAgain = await send('PATCH', `/v1/webhooks/${hmac.body.id}`, token, { legacySecret });
    expect(setAgain.status).toBe(400);
    expect(setAgain.body.error.details.fields[0].field).toBe('legacySecret');
  });
});

describe('a rotation racing a change of scheme', () => {
  it('the rotation that finds the scheme changed under it is a 409 and writes no key', async () => {
    const { token } = await signupAccount(api);
    const made = await send('POST', '/v1/webhooks', token, {
      url: 'https://example.com/hook',
      events: ['message.received'],
    });
    const id = made.body.id as string;
    // Another change of scheme, holding the row until it commits: the rotation has read 'hmac-sha256' and waits.
    const other = new pg.Client({ connectionString: t.deps.config.database.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`UPDATE webhooks SET signature_scheme = 'ed25519', public_key = 'whpk_other' WHERE id = $1`, [
        id,
      ]);
      const rotation = send('POST', `/v1/webhooks/${id}/rotate-secret`, token);
      await waitUntil(
        async () =>
          (
            await other.query(
              `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          ).rowCount,
        30_000,
        'the rotation waiting on the row',
      );
      await other.query('COMMIT');
      const res = await rotation;
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('conflict');
    } finally {
      await other.end();
    }
    const row = await rowOf(id);
    expect(row).toMatchObject({ signature_scheme: 'ed25519', public_key: 'whpk_other', previous_secret_sealed: null });
  });
});

/** The events of a server-sent event stream, parsed as they arrive. */
async function* sseEvents(res: Response): AsyncGenerator<{ event: string; data: any }> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const field = (name: string) =>
        block
          .split('\n')
          .filter((l) => l.startsWith(`${name}:`))
          .map((l) => l.slice(name.length + 1).trimStart())
          .join('\n');
      if (field('data')) yield { event: field('event') || 'message', data: JSON.parse(field('data')) };
    }
  }
}

describe('the other ways a subscription is made', () => {
  it('a stream (GET /v1/webhook-streams?signatureScheme=ed25519) opens with the public key and signs v1a', async () => {
    const { token, accountId } = await signupAccount(api);
    const bad = await api.get('/v1/webhook-streams?signatureScheme=rsa', { token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields[0].field).toBe('signatureScheme');

    const abort = new AbortController();
    const res = await fetch(`${t.url}/v1/webhook-streams?events=message.received&signatureScheme=ed25519`, {
      headers: { authorization: `Bearer ${token}` },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const events = sseEvents(res);
    try {
      const opened = (await events.next()).value!;
      expect(opened.event).toBe('opened');
      expect(opened.data).toMatchObject({ secret: null, signatureScheme: 'ed25519' });
      const whpk = opened.data.publicKey as string;
      publicKeyBytes(whpk);
      expect((await send('GET', `/v1/webhooks/${opened.data.webhookId}`, token)).body).toMatchObject({
        kind: 'stream',
        signatureScheme: 'ed25519',
        publicKey: whpk,
      });
      // A stream's key is its session's: it is not rotated or changed by the API.
      expect((await send('POST', `/v1/webhooks/${opened.data.webhookId}/rotate-secret`, token)).status).toBe(409);

      await emit(accountId);
      const delivery = (await events.next()).value!;
      expect(delivery.event).toBe('delivery');
      const { headers, body } = delivery.data;
      expect(headers['x-switchboard-signature']).toBeUndefined();
      const forwarded: Received = { headers, raw: body, body: JSON.parse(body), at: Date.now(), path: '/' };
      expect(await v1aResults(forwarded, whpk)).toEqual([true]);
      const report = { token: delivery.data.token, deliveryId: delivery.data.deliveryId, status: 204, durationMs: 1 };
      expect((await send('POST', `/v1/webhook-streams/${opened.data.webhookId}/reports`, token, report)).status).toBe(
        202,
      );
      await expectNoSecretIn(opened.data.webhookId, [JSON.stringify(opened.data), JSON.stringify(delivery.data)]);
    } finally {
      abort.abort();
      await events.return(undefined);
    }
  });

  it('a portal-made subscription can be ed25519: created, shown, rotated, delivered', async () => {
    const { token, accountId } = await signupAccount(api);
    const r = await receiver();
    const link = await api.post('/v1/portal-links', { token, body: { tenant: 'cust-1' } });
    const portal = link.body.token as string;
    const created = await api.post('/v1/portal/webhooks', {
      token: portal,
      body: { url: `${r.url}/hook`, events: ['message.received'], signatureScheme: 'ed25519' },
    });
    answers.push(JSON.stringify(created.body));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tenant: 'cust-1', signatureScheme: 'ed25519', secret: null });
    const id = created.body.id as string;
    const listed = await send('GET', '/v1/portal/webhooks', portal);
    expect(listed.body.data[0].publicKey).toBe(created.body.publicKey);

    const refused = await send('POST', `/v1/portal/webhooks/${id}/rotate-secret`, portal, {
      signatureScheme: 'hmac-sha256',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields[0].field).toBe('signatureScheme');
    const rotated = await send('POST', `/v1/portal/webhooks/${id}/rotate-secret`, portal);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ secret: null, signatureScheme: 'ed25519' });

    await emit(accountId);
    const [got] = await r.waitFor(1);
    expect(await v1aResults(got!, rotated.body.publicKey)).toEqual([true, false]);
    expect(await v1aResults(got!, created.body.publicKey)).toEqual([false, true]);
    await expectNoSecretIn(id, answers);
  });
});
