import type { WebhookEnvelope } from './envelope.ts';
import { WebhookVerificationError, type VerificationFailure } from './errors.ts';
import type { HeadersLike } from './headers.ts';
import { importKeys, type PublicKey, type SecretKey } from './keys.ts';
import { verifySwitchboard, verifyStandard, type SchemeResult } from './schemes.ts';

export interface VerifyOptions {
  /** How far the signature's timestamp may be from now, either way. Default 300 (the service's recommendation). */
  toleranceSeconds?: number;
  /** The clock the timestamp is compared with. */
  now?: () => Date;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

// When every scheme present fails, the one that got furthest says why: a verified signature that is too old tells
// more than a signature that does not match, which tells more than a header that cannot be read.
const PRECEDENCE: VerificationFailure[] = [
  'outside_tolerance',
  'no_matching_signature',
  'bad_timestamp',
  'missing_header',
];

/**
 * Verifies a delivery's signature over its raw body and returns the parsed envelope. `key` is the subscription's
 * `whsec_` secret (it verifies `X-Switchboard-Signature` and Standard Webhooks `v1`) or a `whpk_` public key
 * (`v1a`), or a list of them while a key is being rotated: any one that verifies is enough. Every refusal is a
 * `WebhookVerificationError`; nothing of the body is parsed before a signature verified.
 */
export async function verify(
  rawBody: string | Uint8Array,
  headers: HeadersLike,
  key: string | string[],
  options: VerifyOptions = {},
): Promise<WebhookEnvelope> {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new RangeError('toleranceSeconds must be a number ≥ 0');
  const keys = await importKeys(key);
  const body = bodyBytes(rawBody);
  const secrets = keys.filter((k): k is SecretKey => k.kind === 'secret');
  const publicKeys = keys.filter((k): k is PublicKey => k.kind === 'public');

  const results: SchemeResult[] = [];
  if (secrets.length > 0) results.push(await verifySwitchboard(body, headers, secrets));
  results.push(await verifyStandard(body, headers, [...secrets, ...publicKeys]));

  const nowSeconds = Math.floor(readClock(options.now) / 1000);
  const verified = results.filter((r) => r.ok);
  if (verified.some((r) => Math.abs(nowSeconds - r.timestamp) <= tolerance)) return parseEnvelope(body);
  if (verified.length > 0) throw new WebhookVerificationError('outside_tolerance');
  const reasons = new Set(results.flatMap((r) => (r.ok ? [] : [r.reason])));
  throw new WebhookVerificationError(PRECEDENCE.find((reason) => reasons.has(reason)) ?? 'missing_header');
}

function bodyBytes(rawBody: unknown): Uint8Array {
  if (typeof rawBody === 'string') return new TextEncoder().encode(rawBody);
  if (rawBody instanceof Uint8Array) return rawBody;
  // Bytes made in another realm (an iframe, a vm context) fail instanceof but are bytes all the same.
  if (Object.prototype.toString.call(rawBody) === '[object Uint8Array]') return rawBody as Uint8Array;
  // A parsed object (the body after a JSON middleware) cannot be verified: its bytes are gone.
  throw new WebhookVerificationError('malformed_body');
}

function readClock(now: VerifyOptions['now']): number {
  const time = (now ? now() : new Date()).getTime();
  if (!Number.isFinite(time)) throw new RangeError('now() must return a valid Date');
  return time;
}

function parseEnvelope(body: Uint8Array): WebhookEnvelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new WebhookVerificationError('malformed_body');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new WebhookVerificationError('malformed_body');
  }
  return parsed as WebhookEnvelope;
}
