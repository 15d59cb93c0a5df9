import { createHmac, randomBytes } from 'node:crypto';

// Signing of webhook deliveries (docs/decisions.md#webhook-signatures). Receivers verify against the raw body bytes.

export const SECRET_PREFIX = 'whsec_';

export const generateWebhookSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64');

export interface SigningSecrets {
  current: string;
  /** The secret before the last rotation, while its 24 h overlap lasts. */
  previous?: string | null;
  /** A client-chosen secret for the earlier plain-HMAC scheme. */
  legacy?: string | null;
}

const hmacHex = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest('hex');

/** The Standard Webhooks key: the bytes the base64 after `whsec_` encodes. */
const standardKey = (secret: string) => Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');

/** Every signature header of one delivery. `unixSeconds` is the send time. */
export function signatureHeaders(
  deliveryId: string,
  body: string,
  unixSeconds: number,
  secrets: SigningSecrets,
): Record<string, string> {
  const keys = [secrets.current, ...(secrets.previous ? [secrets.previous] : [])];
  const signed = `${unixSeconds}.${body}`;
  const standardSigned = `${deliveryId}.${unixSeconds}.${body}`;
  const headers: Record<string, string> = {
    'x-switchboard-signature': [`t=${unixSeconds}`, ...keys.map((k) => `v1=${hmacHex(k, signed)}`)].join(','),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(unixSeconds),
    'webhook-signature': keys
      .map((k) => `v1,${createHmac('sha256', standardKey(k)).update(standardSigned, 'utf8').digest('base64')}`)
      .join(' '),
  };
  if (secrets.legacy) headers['x-switchboard-signature-legacy'] = hmacHex(secrets.legacy, body);
  return headers;
}
