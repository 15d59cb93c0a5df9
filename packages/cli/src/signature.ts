import { verify, WebhookVerificationError } from '@switchboard/webhooks';
import type { StreamDelivery } from './stream-delivery.js';

// The one place the CLI checks a delivery's signature, with the receiver library integrators use
// (@switchboard/webhooks): `listen` verifies each delivery of its stream with the session's key (its secret, or an
// ed25519 session's public key) before forwarding it, so what a local receiver gets is known to verify the way production deliveries do.

/** 'verified', or the library's reason the delivery does not verify with `key` (whsec_ or whpk_). */
export async function checkSignature(d: StreamDelivery, key: string): Promise<string> {
  try {
    await verify(d.body, d.headers, key);
    return 'verified';
  } catch (err) {
    // Anything else the library throws is shown the same way: a check must not end the session.
    return err instanceof WebhookVerificationError ? err.reason : (err as Error).message;
  }
}
