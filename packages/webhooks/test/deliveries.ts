import { randomBytes, randomUUID } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { buildEnvelope } from '../../../src/delivery/envelope.js';
import { generateWebhookSecret, signatureHeaders, signingKey } from '../../../src/delivery/sign.js';

// Deliveries as the service builds and signs them (src/delivery/envelope.ts, src/delivery/sign.ts), and v1a
// signatures made independently of the library under test (@noble/ed25519), for the tests to verify.

export const NOW = new Date('2026-11-29T12:00:00Z');
export const NOW_S = Math.floor(NOW.getTime() / 1000);
export const at = (seconds: number) => () => new Date((NOW_S + seconds) * 1000);

export interface Delivery {
  id: string;
  body: string;
  headers: Record<string, string>;
  secret: string;
}

/** One delivery's body and headers, signed by the service with `secret` (and `previous` during a rotation). */
export function serviceDelivery(
  options: { secret?: string; previous?: string; unixSeconds?: number; payload?: Record<string, unknown> } = {},
): Delivery {
  const secret = options.secret ?? generateWebhookSecret();
  const id = randomUUID();
  const body = JSON.stringify(
    buildEnvelope({
      id,
      event: 'contact.created',
      event_created_at: NOW,
      inbox_id: null,
      message_id: null,
      payload: options.payload ?? { id: 'ct_1', name: 'Zoë «quoted» 📬' },
    }),
  );
  const headers = signatureHeaders(id, body, options.unixSeconds ?? NOW_S, {
    current: signingKey(secret),
    previous: options.previous ? signingKey(options.previous) : null,
  });
  return { id, body, headers, secret };
}

/** Only the headers of one scheme: `X-Switchboard-Signature`, or the three Standard Webhooks ones. */
export function onlySwitchboard(headers: Record<string, string>): Record<string, string> {
  return { 'x-switchboard-signature': headers['x-switchboard-signature']! };
}
export function onlyStandard(headers: Record<string, string>): Record<string, string> {
  const { 'x-switchboard-signature': _, ...rest } = headers;
  return rest;
}

export interface Ed25519Pair {
  publicKey: string;
  sign(id: string, unixSeconds: number, body: string): Promise<string>;
}

/** An Ed25519 pair as `whpk_…` and a `v1a,<base64>` signer over `<id>.<timestamp>.<body>`, by @noble/ed25519. */
export async function nobleKeyPair(): Promise<Ed25519Pair> {
  const { secretKey, publicKey } = await ed.keygenAsync();
  return {
    publicKey: `whpk_${Buffer.from(publicKey).toString('base64')}`,
    async sign(id, unixSeconds, body) {
      const signature = await ed.signAsync(new TextEncoder().encode(`${id}.${unixSeconds}.${body}`), secretKey);
      return `v1a,${Buffer.from(signature).toString('base64')}`;
    },
  };
}

/** A `v1a`-signed delivery: the service's envelope with the Standard Webhooks headers, signed by `pair`. */
export async function v1aDelivery(pair: Ed25519Pair, unixSeconds = NOW_S): Promise<Delivery> {
  const base = serviceDelivery({ unixSeconds });
  return {
    ...base,
    headers: {
      'webhook-id': base.id,
      'webhook-timestamp': String(unixSeconds),
      'webhook-signature': await pair.sign(base.id, unixSeconds, base.body),
    },
  };
}

export const randomSecret = (bytes = 32) => `whsec_${randomBytes(bytes).toString('base64')}`;
