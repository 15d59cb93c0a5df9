import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { Sealer } from '../platform/crypto.js';

// Signing of webhook deliveries (docs/adr/0018-webhook-signatures.md). Receivers verify against the raw body bytes.

export const SECRET_PREFIX = 'whsec_';

export const generateWebhookSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64');

/**
 * One secret as HMAC keys: the whole string (the `v1=` hex scheme and the legacy one) and the bytes the base64
 * after `whsec_` encodes (the Standard Webhooks key; not used for a legacy secret). Made once per secret: deriving an HMAC key
 * from a Buffer on every call cost more than the HMAC itself (docs/performance.md#delivery-pipeline-cost-per-event).
 */
export interface SigningKey {
  whole: KeyObject;
  standard: KeyObject;
}

export function signingKey(secret: string): SigningKey {
  return {
    whole: createSecretKey(Buffer.from(secret, 'utf8')),
    standard: createSecretKey(Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')),
  };
}

export interface SigningKeys {
  current: SigningKey;
  /** The secret before the last rotation, while its 24 h overlap lasts. */
  previous?: SigningKey | null;
  /** A client-chosen secret for the earlier plain-HMAC scheme. */
  legacy?: SigningKey | null;
}

/** The signing keys of sealed secrets, opened once each. */
export interface SigningKeyring {
  keyOf(sealed: string): SigningKey;
}

/**
 * A runtime's keyring: a sealed value never changes (a rotation writes a new one, so a rotated secret is a new
 * entry and the old one is no longer asked for), so each is opened and turned into keys once. Bounded: past
 * `maxEntries` it starts again empty. It holds key objects, never the secret as a string, and nothing logs it.
 */
export function createSigningKeyring(sealer: Sealer, maxEntries = 10_000): SigningKeyring {
  const keys = new Map<string, SigningKey>();
  return {
    keyOf(sealed) {
      let key = keys.get(sealed);
      if (key === undefined) {
        key = signingKey(sealer.open(sealed));
        if (keys.size >= maxEntries) keys.clear();
        keys.set(sealed, key);
      }
      return key;
    },
  };
}

const hmac = (key: KeyObject, data: string, encoding: 'hex' | 'base64') =>
  createHmac('sha256', key).update(data, 'utf8').digest(encoding);

/** Every signature header of one delivery. `unixSeconds` is the send time. */
export function signatureHeaders(
  deliveryId: string,
  body: string,
  unixSeconds: number,
  secrets: SigningKeys,
): Record<string, string> {
  const { current, previous, legacy } = secrets;
  const signed = `${unixSeconds}.${body}`;
  const standardSigned = `${deliveryId}.${signed}`;
  let v1 = `t=${unixSeconds},v1=${hmac(current.whole, signed, 'hex')}`;
  let standard = `v1,${hmac(current.standard, standardSigned, 'base64')}`;
  if (previous) {
    v1 += `,v1=${hmac(previous.whole, signed, 'hex')}`;
    standard += ` v1,${hmac(previous.standard, standardSigned, 'base64')}`;
  }
  const headers: Record<string, string> = {
    'x-switchboard-signature': v1,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(unixSeconds),
    'webhook-signature': standard,
  };
  if (legacy) headers['x-switchboard-signature-legacy'] = hmac(legacy.whole, body, 'hex');
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
 * secret too while its overlap lasts and the legacy one if set.
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
      legacy: d.legacy_secret_sealed ? keyring.keyOf(d.legacy_secret_sealed) : null,
    }),
  };
}
