import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Received } from './receiver.js';

/**
 * Checks X-Switchboard-Signature as docs/webhook-signatures.md#verifying-signatures tells receivers to: over the raw
 * body, within 300 s, constant time.
 */
export function verifySwitchboardSignature(r: Received, secret: string): boolean {
  const parts = String(r.headers['x-switchboard-signature']).split(',');
  const ts = Number(parts.find((p) => p.startsWith('t='))?.slice(2));
  if (!ts || Math.abs(Date.now() / 1000 - ts) > 300) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${ts}.${r.raw}`).digest('hex'));
  return parts
    .filter((p) => p.startsWith('v1='))
    .some((p) => {
      const got = Buffer.from(p.slice(3));
      return got.length === expected.length && timingSafeEqual(got, expected);
    });
}
