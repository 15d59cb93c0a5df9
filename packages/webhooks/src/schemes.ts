import { concatBytes, decodeBase64, decodeHex } from './encoding.ts';
import type { VerificationFailure } from './errors.ts';
import { readHeader, type HeadersLike } from './headers.ts';
import type { PublicKey, SecretKey, VerifyingKey, WebCryptoKey } from './keys.ts';

// The two header formats a delivery is signed in (docs/adr/0018-webhook-signatures.md). Each checks its headers'
// shape, then the signatures, then the timestamp's distance from now: a stale timestamp is reported only for a
// signature that verified, so `outside_tolerance` always means a genuine delivery that is too old (or a clock that
// is off), never a forgery.

/** What one scheme concluded: the timestamp its signature verified with, or why it did not. */
export type SchemeResult = { ok: true; timestamp: number } | { ok: false; reason: VerificationFailure };

/** A header may list several signatures (two during a rotation); past this many the rest are not tried. */
export const MAX_SIGNATURES = 16;

const TIMESTAMP = /^[0-9]{1,12}$/;
const HMAC_SHA256_BYTES = 32;
const ED25519_SIGNATURE_BYTES = 64;

const fail = (reason: VerificationFailure): SchemeResult => ({ ok: false, reason });

/** `X-Switchboard-Signature: t=<unix s>,v1=<hex>[,v1=<hex>]`, HMAC-SHA256 with the whole secret over `<t>.<body>`. */
export async function verifySwitchboard(body: Uint8Array, headers: HeadersLike, keys: SecretKey[]) {
  const header = readHeader(headers, 'x-switchboard-signature');
  if (header === undefined) return fail('missing_header');
  const fields = header.split(',').map((field) => field.trim());
  const stamps = new Set(fields.filter((f) => f.startsWith('t=')).map((f) => f.slice(2)));
  const [t] = stamps;
  if (stamps.size !== 1 || t === undefined || !TIMESTAMP.test(t)) return fail('bad_timestamp');
  const signatures = fields
    .filter((f) => f.startsWith('v1='))
    .slice(0, MAX_SIGNATURES)
    .map((f) => decodeHex(f.slice(3)))
    .filter((s) => s?.length === HMAC_SHA256_BYTES) as Uint8Array<ArrayBuffer>[];
  const signed = concatBytes(`${t}.`, body);
  for (const key of keys) {
    for (const signature of signatures) {
      if (await verifies('HMAC', key.whole, signature, signed)) return { ok: true, timestamp: Number(t) } as const;
    }
  }
  return fail('no_matching_signature');
}

/**
 * Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64> v1a,<base64> …` over
 * `<id>.<timestamp>.<body>`; `v1` is HMAC-SHA256 with the secret's bytes, `v1a` Ed25519 with the public key.
 */
export async function verifyStandard(body: Uint8Array, headers: HeadersLike, keys: VerifyingKey[]) {
  const id = readHeader(headers, 'webhook-id');
  const t = readHeader(headers, 'webhook-timestamp');
  const header = readHeader(headers, 'webhook-signature');
  if (id === undefined || t === undefined || header === undefined) return fail('missing_header');
  if (!TIMESTAMP.test(t)) return fail('bad_timestamp');
  const tokens = header
    .split(/\s+/)
    .map((token) => token.replace(/,$/, ''))
    .filter((token) => token.length > 0)
    .slice(0, MAX_SIGNATURES);
  const signed = concatBytes(`${id}.${t}.`, body);
  const ok = { ok: true, timestamp: Number(t) } as const;
  for (const key of keys) {
    for (const token of tokens) {
      if (key.kind === 'secret' && (await matchesV1(token, key, signed))) return ok;
      if (key.kind === 'public' && (await matchesV1a(token, key, signed))) return ok;
    }
  }
  return fail('no_matching_signature');
}

async function matchesV1(token: string, key: SecretKey, signed: Uint8Array<ArrayBuffer>) {
  if (!token.startsWith('v1,')) return false;
  const signature = decodeBase64(token.slice(3));
  return signature?.length === HMAC_SHA256_BYTES && verifies('HMAC', key.standard, signature, signed);
}

async function matchesV1a(token: string, key: PublicKey, signed: Uint8Array<ArrayBuffer>) {
  if (!token.startsWith('v1a,')) return false;
  const signature = decodeBase64(token.slice(4));
  return signature?.length === ED25519_SIGNATURE_BYTES && verifies('Ed25519', key.key, signature, signed);
}

/** WebCrypto's verify: HMAC compares in constant time. A signature it cannot even check is one that does not match. */
async function verifies(
  algorithm: 'HMAC' | 'Ed25519',
  key: WebCryptoKey,
  signature: Uint8Array<ArrayBuffer>,
  signed: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  try {
    return await crypto.subtle.verify(algorithm, key, signature, signed);
  } catch {
    return false;
  }
}
