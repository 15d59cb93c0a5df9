import { generateKeyPairSync, randomUUID, sign as nodeSign } from 'node:crypto';
import { Webhook, WebhookVerificationError as StandardError } from 'standardwebhooks';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { verify, WebhookVerificationError } from '@switchboard/webhooks';
import {
  at,
  nobleKeyPair,
  NOW,
  NOW_S,
  onlyStandard,
  onlySwitchboard,
  randomSecret,
  serviceDelivery,
  v1aDelivery,
} from './deliveries.js';

// The library against implementations it shares nothing with: the Standard Webhooks reference library
// (standardwebhooks), Stripe's (stripe, whose Stripe-Signature X-Switchboard-Signature copies), Ed25519 signatures
// from @noble/ed25519 and from Node's OpenSSL, and the reference library's published test vector.

const now = () => NOW;

const verdict = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (err: unknown) => (err instanceof WebhookVerificationError ? err.reason : `threw ${String(err)}`),
  );

describe('standardwebhooks', () => {
  it('signs, ours verifies; a signature made with another key or over another body it refuses, as the reference does', async () => {
    const secret = randomSecret();
    const wh = new Webhook(secret);
    const id = `msg_${randomUUID()}`;
    const body = JSON.stringify({ id, event: 'contact.created', payload: { id: 'ct_1' } });
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(NOW_S),
      'webhook-signature': wh.sign(id, NOW, body),
    };
    await expect(verify(body, headers, secret, { now })).resolves.toEqual(JSON.parse(body));
    await expect(verdict(verify(body, headers, randomSecret(), { now }))).resolves.toBe('no_matching_signature');
    await expect(verdict(verify(body + ' ', headers, secret, { now }))).resolves.toBe('no_matching_signature');
  });

  it('verifies what the service signs, as ours does, and both refuse the same tampering', () => {
    const d = serviceDelivery();
    const fresh = serviceDelivery({ secret: d.secret, unixSeconds: Math.floor(Date.now() / 1000) });
    expect(new Webhook(d.secret).verify(fresh.body, onlyStandard(fresh.headers))).toEqual(JSON.parse(fresh.body));
    expect(() => new Webhook(d.secret).verify(fresh.body + ' ', onlyStandard(fresh.headers))).toThrow(StandardError);
    expect(() => new Webhook(randomSecret()).verify(fresh.body, onlyStandard(fresh.headers))).toThrow(StandardError);
  });

  it('refuses what ours refuses, case by case', async () => {
    const d = serviceDelivery({ unixSeconds: Math.floor(Date.now() / 1000) });
    const ours = (body: string, headers: Record<string, string>) => verdict(verify(body, headers, d.secret));
    const reference = (body: string, headers: Record<string, string>) => {
      try {
        new Webhook(d.secret).verify(body, headers);
        return 'accepted';
      } catch (err) {
        return err instanceof StandardError ? 'refused' : `threw ${String(err)}`;
      }
    };
    const headers = onlyStandard(d.headers);
    const cases: Array<[string, Record<string, string>, string]> = [
      [d.body, headers, 'accepted'],
      [d.body.replace('ct_1', 'ct_2'), headers, 'no_matching_signature'],
      [d.body, { ...headers, 'webhook-id': randomUUID() }, 'no_matching_signature'],
      [
        d.body,
        { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) },
        'no_matching_signature',
      ],
      [d.body, { ...headers, 'webhook-timestamp': 'later' }, 'bad_timestamp'],
      [d.body, { ...headers, 'webhook-signature': 'v1,' }, 'no_matching_signature'],
      [d.body, { 'webhook-id': d.id, 'webhook-timestamp': headers['webhook-timestamp']! }, 'missing_header'],
    ];
    for (const [body, h, reason] of cases) {
      await expect(ours(body, h)).resolves.toBe(reason);
      expect(reference(body, h)).toBe(reason === 'accepted' ? 'accepted' : 'refused');
    }
    const old = serviceDelivery({ secret: d.secret, unixSeconds: Math.floor(Date.now() / 1000) - 3600 });
    await expect(ours(old.body, onlyStandard(old.headers))).resolves.toBe('outside_tolerance');
    expect(reference(old.body, onlyStandard(old.headers))).toBe('refused');
  });

  it("matches the reference library's published vector", async () => {
    // The vector the standardwebhooks JavaScript library tests its signer with (its "sign function works" test).
    const headers = {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    const key = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const then = () => new Date(1614265330 * 1000);
    await expect(verify('{"test": 2432232314}', headers, key, { now: then })).resolves.toEqual({ test: 2432232314 });
    await expect(verdict(verify('{"test": 2432232315}', headers, key, { now: then }))).resolves.toBe(
      'no_matching_signature',
    );
    // Several signatures, one of them valid, in the reference's own multi-signature test's order.
    const listed = {
      ...headers,
      'webhook-signature': [
        'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=',
        'v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=',
        headers['webhook-signature'],
        'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=',
      ].join(' '),
    };
    await expect(verify('{"test": 2432232314}', listed, key, { now: then })).resolves.toEqual({ test: 2432232314 });
  });
});

describe('stripe', () => {
  // constructEvent's clock, in milliseconds.
  const receivedAt = NOW.getTime();

  it('generateTestHeaderString signs, ours verifies it as X-Switchboard-Signature', async () => {
    const secret = randomSecret();
    const body = JSON.stringify({ id: randomUUID(), event: 'contact.created', payload: {} });
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: NOW_S });
    const headers = { 'x-switchboard-signature': header };
    await expect(verify(body, headers, secret, { now })).resolves.toEqual(JSON.parse(body));
    await expect(verdict(verify(body, headers, randomSecret(), { now }))).resolves.toBe('no_matching_signature');
  });

  it('constructEvent accepts what the service signs, with the previous secret too during a rotation', () => {
    const previous = randomSecret();
    const d = serviceDelivery({ previous });
    const header = d.headers['x-switchboard-signature']!;
    for (const secret of [d.secret, previous]) {
      expect(Stripe.webhooks.constructEvent(d.body, header, secret, 300, undefined, receivedAt)).toEqual(
        JSON.parse(d.body),
      );
    }
  });

  it('ours refuses every X-Switchboard-Signature constructEvent refuses', async () => {
    const d = serviceDelivery();
    const header = d.headers['x-switchboard-signature']!;
    const [, hex] = header.split(',v1=');
    const cases: Array<{ body: string; header: string; secret: string; at: number; reason: string }> = [
      { body: d.body.replace('ct_1', 'ct_3'), header, secret: d.secret, at: 0, reason: 'no_matching_signature' },
      { body: d.body, header, secret: randomSecret(), at: 0, reason: 'no_matching_signature' },
      { body: d.body, header, secret: d.secret, at: 301, reason: 'outside_tolerance' },
      { body: d.body, header: `t=${NOW_S}`, secret: d.secret, at: 0, reason: 'no_matching_signature' },
      { body: d.body, header: `v1=${hex}`, secret: d.secret, at: 0, reason: 'bad_timestamp' },
      { body: d.body, header: `t=${NOW_S + 1},v1=${hex}`, secret: d.secret, at: 0, reason: 'no_matching_signature' },
      { body: d.body, header: `t=${NOW_S},v0=${hex}`, secret: d.secret, at: 0, reason: 'no_matching_signature' },
      { body: d.body, header: 'garbage', secret: d.secret, at: 0, reason: 'bad_timestamp' },
    ];
    for (const c of cases) {
      const stripe = () =>
        Stripe.webhooks.constructEvent(c.body, c.header, c.secret, 300, undefined, receivedAt + c.at * 1000);
      expect(stripe, JSON.stringify(c)).toThrow(Stripe.errors.StripeSignatureVerificationError);
      const ours = verify(c.body, { 'x-switchboard-signature': c.header }, c.secret, { now: at(c.at) });
      await expect(verdict(ours), JSON.stringify(c)).resolves.toBe(c.reason);
    }
  });
});

describe('v1a (Ed25519) signed outside the library', () => {
  it('by @noble/ed25519: ours verifies with the whpk_ key, refuses another key and a changed body', async () => {
    const pair = await nobleKeyPair();
    const d = await v1aDelivery(pair);
    await expect(verify(d.body, d.headers, pair.publicKey, { now })).resolves.toEqual(JSON.parse(d.body));
    await expect(verify(d.body, d.headers, pair.publicKey, { now: at(301) }).catch((e) => e.reason)).resolves.toBe(
      'outside_tolerance',
    );
    const other = (await nobleKeyPair()).publicKey;
    await expect(verdict(verify(d.body, d.headers, other, { now }))).resolves.toBe('no_matching_signature');
    await expect(verdict(verify(d.body + ' ', d.headers, pair.publicKey, { now }))).resolves.toBe(
      'no_matching_signature',
    );
    // A secret cannot check a v1a signature, nor a public key a v1 one.
    await expect(verdict(verify(d.body, d.headers, randomSecret(), { now }))).resolves.toBe('no_matching_signature');
    const s = serviceDelivery();
    await expect(verdict(verify(s.body, onlyStandard(s.headers), pair.publicKey, { now }))).resolves.toBe(
      'no_matching_signature',
    );
  });

  it("by Node's OpenSSL, in one header with a v1 signature as the specification's example has them", async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
    const whpk = `whpk_${raw.toString('base64')}`;
    const s = serviceDelivery();
    const signed = Buffer.from(`${s.id}.${NOW_S}.${s.body}`);
    const v1a = `v1a,${nodeSign(null, signed, privateKey).toString('base64')}`;
    const headers = { ...onlyStandard(s.headers), 'webhook-signature': `${s.headers['webhook-signature']} ${v1a}` };
    await expect(verify(s.body, headers, whpk, { now })).resolves.toMatchObject({ id: s.id });
    await expect(verify(s.body, headers, s.secret, { now })).resolves.toMatchObject({ id: s.id });
    await expect(verify(s.body, headers, [randomSecret(), whpk], { now })).resolves.toMatchObject({ id: s.id });
    // Only the Standard Webhooks header carries v1a; X-Switchboard-Signature is for secrets.
    await expect(verdict(verify(s.body, onlySwitchboard(s.headers), whpk, { now }))).resolves.toBe('missing_header');
  });
});
