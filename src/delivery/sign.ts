import { createHmac, createPrivateKey, createSecretKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { Sealer } from '../platform/crypto.js';

// Signing of webhook deliveries (docs/adr/0018-webhook-signatures.md, docs/adr/0084-ed25519-signatures.md).
// Receivers verify against the raw body bytes.

/** How a subscription signs: an HMAC with a shared whsec_ secret, or ed25519 with a whsk_/whpk_ key pair. */
export const SIGNATURE_SCHEMES = ['hmac-sha256', 'ed25519'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

export const SECRET_PREFIX = 'whsec_';
/** Standard Webhooks' prefixes of an ed25519 secret key (the sender's) and public key (the receiver's). */
export const ED25519_SECRET_PREFIX = 'whsk_';
export const ED25519_PUBLIC_PREFIX = 'whpk_';

export const generateWebhookSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64');

/**
 * A new ed25519 key pair as Standard Webhooks writes it: `whsk_` + base64 of the 64-byte secret key (the 32-byte
 * seed, then the 32-byte public key: the form the spec's reference server stores and its libraries read) and
 * `whpk_` + base64 of the 32-byte raw public key.
 */
export function generateEd25519Pair(): { secretKey: string; publicKey: string } {
  const { d, x } = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(d!, 'base64url');
  const pub = Buffer.from(x!, 'base64url');
  return {
    secretKey: ED25519_SECRET_PREFIX + Buffer.concat([seed, pub]).toString('base64'),
    publicKey: ED25519_PUBLIC_PREFIX + pub.toString('base64'),
  };
}

/**
 * One secret as the keys that sign with it, made once per secret: deriving a key from a Buffer on every call cost
 * more than the signature itself (docs/performance.md#delivery-pipeline-cost-per-event).
 * - hmac-sha256: the whole `whsec_` string (the `v1=` hex scheme and the legacy one) and the bytes the base64
 *   after `whsec_` encodes (the Standard Webhooks `v1,` key; not used for a legacy secret).
 * - ed25519: the private key of a `whsk_` secret (the Standard Webhooks `v1a,` signature).
 */
export type SigningKey =
  { scheme: 'hmac-sha256'; whole: KeyObject; standard: KeyObject } | { scheme: 'ed25519'; privateKey: KeyObject };

const hmacKey = (secret: string): SigningKey => ({
  scheme: 'hmac-sha256',
  whole: createSecretKey(Buffer.from(secret, 'utf8')),
  standard: createSecretKey(Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')),
});

/** The PKCS#8 DER of an ed25519 private key up to its 32-byte seed (RFC 8410): the seed follows it. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The private key of a whsk_ secret, from its seed (the first 32 bytes); the public half is derived again. */
function ed25519Key(secret: string): SigningKey {
  const seed = Buffer.from(secret.slice(ED25519_SECRET_PREFIX.length), 'base64').subarray(0, 32);
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, seed]);
  return { scheme: 'ed25519', privateKey: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }) };
}

/** The keys of a secret the service generated: its prefix says its scheme (whsk_ ed25519, whsec_ HMAC). */
export const signingKey = (secret: string): SigningKey =>
  secret.startsWith(ED25519_SECRET_PREFIX) ? ed25519Key(secret) : hmacKey(secret);

export interface SigningKeys {
  current: SigningKey;
  /** The key before the last rotation (or scheme change), while its 24 h overlap lasts; of either scheme. */
  previous?: SigningKey | null;
  /** A client-chosen secret for the earlier plain-HMAC scheme (never on an ed25519 subscription). */
  legacy?: SigningKey | null;
}

/** The signing keys of sealed secrets, opened once each. */
export interface SigningKeyring {
  /** A secret the service generated (whsec_ or whsk_). */
  keyOf(sealed: string): SigningKey;
  /** A client-chosen legacy secret: always an HMAC key, whatever it starts with. */
  legacyKeyOf(sealed: string): SigningKey;
}

/**
 * A runtime's keyring: a sealed value never changes (a rotation writes a new one, so a rotated secret is a new
 * entry and the old one is no longer asked for), so each is opened and turned into keys once. Bounded: past
 * `maxEntries` it starts again empty. It holds key objects, never the secret as a string, and nothing logs it.
 */
export function createSigningKeyring(sealer: Sealer, maxEntries = 10_000): SigningKeyring {
  const keys = new Map<string, SigningKey>();
  const cached = (entry: string, sealed: string, make: (secret: string) => SigningKey) => {
    let key = keys.get(entry);
    if (key === undefined) {
      key = make(sealer.open(sealed));
      if (keys.size >= maxEntries) keys.clear();
      keys.set(entry, key);
    }
    return key;
  };
  return {
    keyOf: (sealed) => cached(sealed, sealed, signingKey),
    // Its own entries: a client may choose a legacy secret that starts with whsk_.
    legacyKeyOf: (sealed) => cached(`legacy:${sealed}`, sealed, hmacKey),
  };
}

const hmac = (key: KeyObject, data: string, encoding: 'hex' | 'base64') =>
  createHmac('sha256', key).update(data, 'utf8').digest(encoding);

/** One Standard Webhooks signature of `<webhook-id>.<webhook-timestamp>.<body>` (`bytes`, its UTF-8). */
const standardSignature = (key: SigningKey, content: string, bytes: () => Buffer) =>
  key.scheme === 'ed25519'
    ? `v1a,${sign(null, bytes(), key.privateKey).toString('base64')}`
    : `v1,${hmac(key.standard, content, 'base64')}`;

/**
 * Every signature header of one delivery. `unixSeconds` is the send time. `X-Switchboard-Signature` carries one
 * `v1=` per HMAC key that signs (none for an ed25519 subscription, so the header is absent); `webhook-signature`
 * one entry per key, `v1,` or `v1a,`, space-separated.
 */
export function signatureHeaders(
  deliveryId: string,
  body: string,
  unixSeconds: number,
  secrets: SigningKeys,
): Record<string, string> {
  const { current, previous, legacy } = secrets;
  const signed = `${unixSeconds}.${body}`;
  const standardSigned = `${deliveryId}.${signed}`;
  let utf8: Buffer | undefined;
  const bytes = () => (utf8 ??= Buffer.from(standardSigned, 'utf8'));
  let v1 = '';
  let standard = standardSignature(current, standardSigned, bytes);
  if (current.scheme === 'hmac-sha256') v1 += `,v1=${hmac(current.whole, signed, 'hex')}`;
  if (previous) {
    if (previous.scheme === 'hmac-sha256') v1 += `,v1=${hmac(previous.whole, signed, 'hex')}`;
    standard += ` ${standardSignature(previous, standardSigned, bytes)}`;
  }
  const headers: Record<string, string> = {};
  if (v1) headers['x-switchboard-signature'] = `t=${unixSeconds}${v1}`;
  headers['webhook-id'] = deliveryId;
  headers['webhook-timestamp'] = String(unixSeconds);
  headers['webhook-signature'] = standard;
  if (legacy?.scheme === 'hmac-sha256') headers['x-switchboard-signature-legacy'] = hmac(legacy.whole, body, 'hex');
  return headers;
}

export const USER_AGENT = 'Switchboard-Webhooks/1';

/** What signing a delivery reads of it: its ids, its event and its subscription's sealed secrets. */
export interface SignedDelivery {
  id: string;
  event: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  legacy_secret_sealed: string | null;
}

/**
 * Every header of the request, as sent and as recorded with the attempt: the signature headers, with the previous
 * key too while its overlap lasts and the legacy one if set.
 */
export function signedHeaders(
  keyring: SigningKeyring,
  d: SignedDelivery,
  body: string,
  at: Date,
): Record<string, string> {
  const previousValid =
    d.previous_secret_sealed && d.previous_secret_expires_at && new Date(d.previous_secret_expires_at) > at;
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-switchboard-event': d.event,
    'x-switchboard-delivery': d.id,
    ...signatureHeaders(d.id, body, Math.floor(at.getTime() / 1000), {
      current: keyring.keyOf(d.secret_sealed),
      previous: previousValid ? keyring.keyOf(d.previous_secret_sealed!) : null,
      legacy: d.legacy_secret_sealed ? keyring.legacyKeyOf(d.legacy_secret_sealed) : null,
    }),
  };
}
