import { createHmac } from 'node:crypto';
import { verifyAsync } from '@noble/ed25519';
import { describe, expect, it } from 'vitest';
import { generateEd25519Pair, generateWebhookSecret, signatureHeaders, signingKey } from '../../src/delivery/sign.js';

const id = '7d9b2a4e-1c3f-4a5b-9c8d-0e1f2a3b4c5d';
const body = '{"id":"7d9b2a4e-1c3f-4a5b-9c8d-0e1f2a3b4c5d","event":"message.received"}';
const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');

describe('webhook signatures', () => {
  it('signs t.<body> keyed by the whole whsec_ string, and the Standard Webhooks form with the decoded key', () => {
    const h = signatureHeaders(id, body, 1_790_000_000, { current: signingKey(secret) });
    const hex = createHmac('sha256', secret).update(`1790000000.${body}`).digest('hex');
    expect(h['x-switchboard-signature']).toBe(`t=1790000000,v1=${hex}`);
    const std = createHmac('sha256', Buffer.alloc(32, 7)).update(`${id}.1790000000.${body}`).digest('base64');
    expect(h['webhook-signature']).toBe(`v1,${std}`);
    expect(h['webhook-id']).toBe(id);
    expect(h['webhook-timestamp']).toBe('1790000000');
    expect(h['x-switchboard-signature-legacy']).toBeUndefined();
  });

  it('adds a second v1 for the previous secret and the legacy header when there is one', () => {
    const previous = generateWebhookSecret();
    const h = signatureHeaders(id, body, 1, {
      current: signingKey(secret),
      previous: signingKey(previous),
      legacy: signingKey('a-legacy-secret-of-16+'),
    });
    expect(h['x-switchboard-signature']).toBe(
      `t=1,v1=${createHmac('sha256', secret).update(`1.${body}`).digest('hex')},v1=${createHmac('sha256', previous).update(`1.${body}`).digest('hex')}`,
    );
    expect(h['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(h['x-switchboard-signature-legacy']).toBe(
      createHmac('sha256', 'a-legacy-secret-of-16+').update(body).digest('hex'),
    );
  });

  it('generates whsec_ + base64 of 32 random bytes', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(generateWebhookSecret());
  });

  it('generates whsk_ (seed and public key, 64 bytes) and whpk_ (the 32-byte public key) of one pair', () => {
    const { secretKey, publicKey } = generateEd25519Pair();
    const secret = Buffer.from(secretKey.slice('whsk_'.length), 'base64');
    const pub = Buffer.from(publicKey.slice('whpk_'.length), 'base64');
    expect(secretKey).toMatch(/^whsk_[A-Za-z0-9+/]{86}==$/);
    expect(publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    expect(secret.subarray(32)).toEqual(pub);
    expect(generateEd25519Pair().publicKey).not.toBe(publicKey);
  });

  it('signs an ed25519 key as v1a over <id>.<t>.<body>, with no X-Switchboard-Signature', async () => {
    const pair = generateEd25519Pair();
    const h = signatureHeaders(id, body, 1_790_000_000, { current: signingKey(pair.secretKey) });
    expect(h['x-switchboard-signature']).toBeUndefined();
    const [version, sig] = h['webhook-signature']!.split(',');
    expect(version).toBe('v1a');
    const pub = Buffer.from(pair.publicKey.slice(5), 'base64');
    const content = new TextEncoder().encode(`${id}.1790000000.${body}`);
    expect(await verifyAsync(Buffer.from(sig!, 'base64'), content, pub)).toBe(true);
    expect(
      await verifyAsync(Buffer.from(sig!, 'base64'), new TextEncoder().encode(`${id}.1790000001.${body}`), pub),
    ).toBe(false);
  });

  it('signs with the keys of both schemes while a change of scheme overlaps: v1= only for the HMAC one', () => {
    const pair = generateEd25519Pair();
    const h = signatureHeaders(id, body, 1, { current: signingKey(pair.secretKey), previous: signingKey(secret) });
    expect(h['x-switchboard-signature']).toBe(
      `t=1,v1=${createHmac('sha256', secret).update(`1.${body}`).digest('hex')}`,
    );
    expect(h['webhook-signature']!.split(' ').map((s) => s.split(',')[0])).toEqual(['v1a', 'v1']);
  });
});
