import { decodeBase64 } from './encoding.ts';
import { WebhookVerificationError } from './errors.ts';

/** WebCrypto's key, named so under both the DOM's types and Node's (where `CryptoKey` is only a value). */
export type WebCryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

export const SECRET_PREFIX = 'whsec_';
export const PUBLIC_KEY_PREFIX = 'whpk_';

/**
 * A `whsec_` secret as its two HMAC keys: the whole string as UTF-8 (`X-Switchboard-Signature`, as Stripe keys
 * `Stripe-Signature`) and the bytes its base64 encodes (Standard Webhooks `v1`).
 */
export interface SecretKey {
  kind: 'secret';
  whole: WebCryptoKey;
  standard: WebCryptoKey;
}

/** A `whpk_` Ed25519 public key (Standard Webhooks `v1a`). */
export interface PublicKey {
  kind: 'public';
  key: WebCryptoKey;
}

export type VerifyingKey = SecretKey | PublicKey;

// The Standard Webhooks specification's bounds on a symmetric secret: 192 to 512 bits.
const SECRET_BYTES = { min: 24, max: 64 };
const ED25519_PUBLIC_KEY_BYTES = 32;

const malformed = () => new WebhookVerificationError('malformed_key');

/** Every key of the list imported for verifying, or `malformed_key` if any one is not a key. */
export async function importKeys(keys: string | string[]): Promise<VerifyingKey[]> {
  const list: unknown[] = Array.isArray(keys) ? keys : [keys];
  if (list.length === 0) throw malformed();
  return Promise.all(list.map(importKey));
}

async function importKey(key: unknown): Promise<VerifyingKey> {
  if (typeof key !== 'string') throw malformed();
  if (key.startsWith(SECRET_PREFIX)) {
    const bytes = decodeBase64(key.slice(SECRET_PREFIX.length));
    if (!bytes || bytes.length < SECRET_BYTES.min || bytes.length > SECRET_BYTES.max) throw malformed();
    const [whole, standard] = await Promise.all([importHmacKey(new TextEncoder().encode(key)), importHmacKey(bytes)]);
    return { kind: 'secret', whole, standard };
  }
  if (key.startsWith(PUBLIC_KEY_PREFIX)) {
    const bytes = decodeBase64(key.slice(PUBLIC_KEY_PREFIX.length));
    if (!bytes || bytes.length !== ED25519_PUBLIC_KEY_BYTES) throw malformed();
    return {
      kind: 'public',
      key: await guard(crypto.subtle.importKey('raw', bytes, { name: 'Ed25519' }, false, ['verify'])),
    };
  }
  throw malformed();
}

const importHmacKey = (bytes: Uint8Array<ArrayBuffer>) =>
  guard(crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']));

/** A runtime that refuses a key (a point not on the curve, an algorithm it lacks) refuses it as malformed. */
async function guard(imported: Promise<WebCryptoKey>): Promise<WebCryptoKey> {
  try {
    return await imported;
  } catch {
    throw malformed();
  }
}
