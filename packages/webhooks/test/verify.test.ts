import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify, WebhookVerificationError, type VerificationFailure } from '@switchboard/webhooks';
import { signatureHeaders, signingKey } from '../../../src/delivery/sign.js';
import {
  at,
  nobleKeyPair,
  type Ed25519Pair,
  NOW,
  NOW_S,
  onlyStandard,
  onlySwitchboard,
  randomSecret,
  serviceDelivery,
  v1aDelivery,
} from './deliveries.js';

// The library against the service's own signer (src/delivery/sign.ts): every scheme it sends verifies, and every
// refusal is a WebhookVerificationError naming its reason.

const now = () => NOW;

async function reasonOf(promise: Promise<unknown>): Promise<VerificationFailure> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebhookVerificationError);
  return (err as WebhookVerificationError).reason;
}

describe('deliveries signed by the service', () => {
  it('verify with the subscription secret through either scheme and return the envelope', async () => {
    const d = serviceDelivery();
    const expected = JSON.parse(d.body);
    expect(expected.payload.name).toBe('Zoë «quoted» 📬');
    await expect(verify(d.body, d.headers, d.secret, { now })).resolves.toEqual(expected);
    await expect(verify(d.body, onlySwitchboard(d.headers), d.secret, { now })).resolves.toEqual(expected);
    await expect(verify(d.body, onlyStandard(d.headers), d.secret, { now })).resolves.toEqual(expected);
    await expect(verify(new TextEncoder().encode(d.body), d.headers, d.secret, { now })).resolves.toEqual(expected);
    await expect(verify(Buffer.from(d.body), d.headers, d.secret, { now })).resolves.toMatchObject({ id: d.id });
    const otherRealm = runInNewContext('(bytes) => new Uint8Array(bytes)')([...Buffer.from(d.body)]) as Uint8Array;
    expect(otherRealm instanceof Uint8Array).toBe(false);
    await expect(verify(otherRealm, d.headers, d.secret, { now })).resolves.toMatchObject({ id: d.id });
  });

  it('verify during a rotation with the old secret or the new one, in either scheme', async () => {
    const previous = randomSecret();
    const d = serviceDelivery({ previous });
    for (const headers of [onlySwitchboard(d.headers), onlyStandard(d.headers)]) {
      await expect(verify(d.body, headers, previous, { now })).resolves.toMatchObject({ id: d.id });
      await expect(verify(d.body, headers, d.secret, { now })).resolves.toMatchObject({ id: d.id });
      await expect(reasonOf(verify(d.body, headers, randomSecret(), { now }))).resolves.toBe('no_matching_signature');
    }
  });

  it('accept a list of keys when any one of them verifies (the receiver rotating its own configuration)', async () => {
    const d = serviceDelivery();
    const pair = await nobleKeyPair();
    await expect(verify(d.body, d.headers, [randomSecret(), d.secret], { now })).resolves.toMatchObject({ id: d.id });
    await expect(verify(d.body, d.headers, [pair.publicKey, d.secret], { now })).resolves.toMatchObject({ id: d.id });
    const reason = reasonOf(verify(d.body, d.headers, [randomSecret(), randomSecret(), pair.publicKey], { now }));
    await expect(reason).resolves.toBe('no_matching_signature');
  });

  it('refuse a body changed by one byte, or re-serialised the way a JSON middleware would', async () => {
    const d = serviceDelivery();
    const tampered = d.body.replace('ct_1', 'ct_2');
    await expect(reasonOf(verify(tampered, d.headers, d.secret, { now }))).resolves.toBe('no_matching_signature');
    const reformatted = JSON.stringify(JSON.parse(d.body), null, 2);
    await expect(reasonOf(verify(reformatted, d.headers, d.secret, { now }))).resolves.toBe('no_matching_signature');
    const parsed = JSON.parse(d.body) as unknown as string;
    await expect(reasonOf(verify(parsed, d.headers, d.secret, { now }))).resolves.toBe('malformed_body');
  });

  it('refuse a signature moved to another delivery id or timestamp', async () => {
    const d = serviceDelivery();
    const otherId = { ...onlyStandard(d.headers), 'webhook-id': serviceDelivery().id };
    await expect(reasonOf(verify(d.body, otherId, d.secret, { now }))).resolves.toBe('no_matching_signature');
    const v1 = d.headers['x-switchboard-signature']!.replace(`t=${NOW_S}`, `t=${NOW_S + 1}`);
    const moved = { 'x-switchboard-signature': v1 };
    await expect(reasonOf(verify(d.body, moved, d.secret, { now }))).resolves.toBe('no_matching_signature');
  });
});

describe('headers', () => {
  it('are read in any case, from Fetch Headers or a plain object', async () => {
    const d = serviceDelivery();
    const shouted = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toUpperCase(), v]));
    await expect(verify(d.body, shouted, d.secret, { now })).resolves.toMatchObject({ id: d.id });
    const mixed = {
      'Webhook-Id': d.id,
      'Webhook-Timestamp': String(NOW_S),
      'WEBHOOK-signature': d.headers['webhook-signature'],
    };
    await expect(verify(d.body, mixed, d.secret, { now })).resolves.toMatchObject({ id: d.id });
    await expect(verify(d.body, new Headers(shouted), d.secret, { now })).resolves.toMatchObject({ id: d.id });
  });

  it('given as arrays (Node IncomingHttpHeaders, headersDistinct) combine their values', async () => {
    const d = serviceDelivery();
    const bad = `v1,${randomBytes(32).toString('base64')}`;
    const arrays: IncomingHttpHeaders = {
      'webhook-id': [d.id] as unknown as string,
      'webhook-timestamp': String(NOW_S),
      'webhook-signature': [bad, d.headers['webhook-signature']!] as unknown as string,
    };
    await expect(verify(d.body, arrays, d.secret, { now })).resolves.toMatchObject({ id: d.id });
    const stripeLike = {
      'x-switchboard-signature': [`t=${NOW_S},v1=${'0'.repeat(64)}`, d.headers['x-switchboard-signature']!],
    };
    await expect(verify(d.body, stripeLike, d.secret, { now })).resolves.toMatchObject({ id: d.id });
    await expect(reasonOf(verify(d.body, { 'webhook-signature': [] }, d.secret, { now }))).resolves.toBe(
      'missing_header',
    );
  });
});

describe('each reason', () => {
  it('missing_header: none of the headers the key can verify', async () => {
    const d = serviceDelivery();
    const pair = await nobleKeyPair();
    await expect(reasonOf(verify(d.body, {}, d.secret, { now }))).resolves.toBe('missing_header');
    await expect(reasonOf(verify(d.body, new Headers(), d.secret, { now }))).resolves.toBe('missing_header');
    const { 'webhook-id': _, ...noId } = onlyStandard(d.headers);
    await expect(reasonOf(verify(d.body, noId, d.secret, { now }))).resolves.toBe('missing_header');
    // A public key verifies only the Standard Webhooks headers: X-Switchboard-Signature alone says nothing to it.
    const v1aOnly = onlySwitchboard(d.headers);
    await expect(reasonOf(verify(d.body, v1aOnly, pair.publicKey, { now }))).resolves.toBe('missing_header');
  });

  it('bad_timestamp: a timestamp that is not whole seconds, or two different ones', async () => {
    const d = serviceDelivery();
    const sig = d.headers['x-switchboard-signature']!;
    for (const header of [
      sig.replace(`t=${NOW_S}`, 't=soon'),
      sig.replace(`t=${NOW_S},`, ''),
      `t=${NOW_S - 1},${sig}`,
    ]) {
      const reason = reasonOf(verify(d.body, { 'x-switchboard-signature': header }, d.secret, { now }));
      await expect(reason).resolves.toBe('bad_timestamp');
    }
    for (const t of ['', '1.5', '-1', `${NOW_S}0000000000`, ' 1']) {
      const headers = { ...onlyStandard(d.headers), 'webhook-timestamp': t };
      await expect(reasonOf(verify(d.body, headers, d.secret, { now }))).resolves.toBe('bad_timestamp');
    }
  });

  it('outside_tolerance: a genuine signature more than the tolerance away, either way; a forged one is not "old"', async () => {
    const d = serviceDelivery();
    for (const headers of [onlySwitchboard(d.headers), onlyStandard(d.headers), d.headers]) {
      await expect(verify(d.body, headers, d.secret, { now: at(300) })).resolves.toMatchObject({ id: d.id });
      await expect(verify(d.body, headers, d.secret, { now: at(-300) })).resolves.toMatchObject({ id: d.id });
      await expect(reasonOf(verify(d.body, headers, d.secret, { now: at(301) }))).resolves.toBe('outside_tolerance');
      await expect(reasonOf(verify(d.body, headers, d.secret, { now: at(-301) }))).resolves.toBe('outside_tolerance');
      const short = { now: at(11), toleranceSeconds: 10 };
      await expect(reasonOf(verify(d.body, headers, d.secret, short))).resolves.toBe('outside_tolerance');
    }
    const forged = reasonOf(verify(d.body.replace('ct_1', 'ct_9'), d.headers, d.secret, { now: at(3600) }));
    await expect(forged).resolves.toBe('no_matching_signature');
    // Without `now`, the clock is the real one.
    const stale = serviceDelivery({ unixSeconds: Math.floor(Date.now() / 1000) - 3600 });
    await expect(reasonOf(verify(stale.body, stale.headers, stale.secret))).resolves.toBe('outside_tolerance');
    const fresh = serviceDelivery({ unixSeconds: Math.floor(Date.now() / 1000) });
    await expect(verify(fresh.body, fresh.headers, fresh.secret)).resolves.toMatchObject({ id: fresh.id });
  });

  it('no_matching_signature: a wrong key, or signatures that are not signatures', async () => {
    const d = serviceDelivery();
    await expect(reasonOf(verify(d.body, d.headers, randomSecret(), { now }))).resolves.toBe('no_matching_signature');
    for (const signature of ['', 'v1,', 'v1,!!!', 'v2,' + d.headers['webhook-signature']!.slice(3), 'v1a,AAAA']) {
      const headers = { ...onlyStandard(d.headers), 'webhook-signature': signature };
      await expect(reasonOf(verify(d.body, headers, d.secret, { now }))).resolves.toBe('no_matching_signature');
    }
    const hex = d.headers['x-switchboard-signature']!;
    for (const header of [`t=${NOW_S}`, `t=${NOW_S},v1=zz`, hex.slice(0, -2), hex.replace('v1=', 'v0=')]) {
      const reason = reasonOf(verify(d.body, { 'x-switchboard-signature': header }, d.secret, { now }));
      await expect(reason).resolves.toBe('no_matching_signature');
    }
  });

  it('malformed_key: anything but a whsec_ secret of 24–64 bytes or a whpk_ key of 32, before any header is read', async () => {
    const d = serviceDelivery();
    const keys: unknown[] = [
      '',
      'whsec_',
      'whsec_not base64!',
      'whsec_' + randomBytes(16).toString('base64'),
      'whsec_' + randomBytes(65).toString('base64'),
      'whsec_' + randomBytes(32).toString('base64url'),
      d.secret.slice('whsec_'.length),
      'whpk_' + randomBytes(31).toString('base64'),
      'whpk_' + randomBytes(33).toString('base64'),
      'whsk_' + randomBytes(32).toString('base64'),
      [],
      [d.secret, 'sk_live_123'],
      42,
    ];
    for (const key of keys) {
      await expect(reasonOf(verify(d.body, d.headers, key as string, { now }))).resolves.toBe('malformed_key');
    }
    await expect(reasonOf(verify(d.body, {}, 'whpk_short', { now }))).resolves.toBe('malformed_key');
  });

  it('malformed_body: a verified body that is not a JSON object, or not bytes at all', async () => {
    const secret = randomSecret();
    for (const body of ['hello', '[1,2]', 'null', '"text"', '{"id":']) {
      const headers = standardHeadersFor(body, secret);
      await expect(reasonOf(verify(body, headers, secret, { now }))).resolves.toBe('malformed_body');
    }
    const invalidUtf8 = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]);
    const signed = signBytes(invalidUtf8, secret);
    await expect(reasonOf(verify(invalidUtf8, signed, secret, { now }))).resolves.toBe('malformed_body');
  });

  it('never carries the key or the body in its message', async () => {
    const d = serviceDelivery();
    const err = await verify(d.body + ' ', d.headers, d.secret, { now }).catch((e: Error) => e);
    expect(String((err as Error).message)).not.toContain(d.secret);
    expect(JSON.stringify(err)).not.toContain(d.secret.slice(6, 20));
    expect(String((err as Error).message)).not.toContain('ct_1');
  });

  it('refuses options that make no sense with a RangeError, not a verification result', async () => {
    const d = serviceDelivery();
    await expect(verify(d.body, d.headers, d.secret, { toleranceSeconds: -1 })).rejects.toThrow(RangeError);
    await expect(verify(d.body, d.headers, d.secret, { toleranceSeconds: NaN })).rejects.toThrow(RangeError);
    await expect(verify(d.body, d.headers, d.secret, { now: () => new Date('nope') })).rejects.toThrow(RangeError);
  });
});

/** The service's Standard Webhooks headers over an arbitrary body (here one that is not an envelope). */
const standardHeadersFor = (body: string, secret: string) =>
  onlyStandard(signatureHeaders(randomUUID(), body, NOW_S, { current: signingKey(secret) }));

/** Standard Webhooks `v1` headers over bytes that are not UTF-8, which the service never sends. */
function signBytes(body: Uint8Array, secret: string) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const mac = createHmac('sha256', key).update(`msg_1.${NOW_S}.`).update(body).digest('base64');
  return { 'webhook-id': 'msg_1', 'webhook-timestamp': String(NOW_S), 'webhook-signature': `v1,${mac}` };
}

describe('a Node http receiver', () => {
  let server: Server;
  let port: number;
  const secret = randomSecret();
  let pair: Ed25519Pair;

  beforeAll(async () => {
    pair = await nobleKeyPair();
    // As README.md shows: collect the raw bytes, verify, answer 204 or 400 with the reason.
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        verify(Buffer.concat(chunks), req.headers, [secret, pair.publicKey], { now }).then(
          (envelope) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(envelope)),
          (err: WebhookVerificationError) => res.writeHead(400).end(err.reason),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** A POST; a header given as an array is sent as that many header lines, as a proxy might. */
  const post = (body: string, headers: Record<string, string | string[]>) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/hooks', headers });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      req.end(body);
    });

  it('accepts what the service sends and refuses a tampered copy', async () => {
    const d = serviceDelivery({ secret });
    const ok = await post(d.body, { ...d.headers, 'content-type': 'application/json' });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toEqual(JSON.parse(d.body));
    const tampered = await post(d.body.replace('contact.created', 'contact.deleted'), d.headers);
    expect(tampered).toEqual({ status: 400, text: 'no_matching_signature' });
  });

  it('verifies a signature header that arrived twice (Node joins the values)', async () => {
    const d = serviceDelivery({ secret });
    const bad = `v1,${randomBytes(32).toString('base64')}`;
    const headers = { 'Webhook-Id': d.id, 'Webhook-Timestamp': String(NOW_S) };
    const twice = { ...headers, 'Webhook-Signature': [bad, d.headers['webhook-signature']!] };
    expect((await post(d.body, twice)).status).toBe(200);
    const once = { ...headers, 'Webhook-Signature': bad };
    expect(await post(d.body, once)).toEqual({ status: 400, text: 'no_matching_signature' });
  });

  it("verifies v1a with the public key it holds beside the secret, and refuses another pair's", async () => {
    const d = await v1aDelivery(pair);
    expect((await post(d.body, d.headers)).status).toBe(200);
    const other = await v1aDelivery(await nobleKeyPair());
    expect(await post(other.body, other.headers)).toEqual({
      status: 400,
      text: 'no_matching_signature',
    });
  });
});
