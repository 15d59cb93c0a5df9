import { generateEd25519Pair, generateWebhookSecret, type SignatureScheme } from '../delivery/sign.js';
import type { Sealer } from '../platform/crypto.js';
import type { NewSigningKey } from './webhooks.repository.js';

// The signing keys the service makes for a subscription (docs/adr/0084-ed25519-signatures.md). The secret half is
// sealed at once and never leaves this function as text but in the HMAC case, where the shared secret is the
// very thing the receiver needs (shown once). An ed25519 secret key is never shown: its public key is.

export interface MadeSigningKey extends NewSigningKey {
  /** The whsec_ to show once; null for ed25519, whose whsk_ is never shown. */
  sharedSecret: string | null;
}

export function newSigningKey(sealer: Sealer, scheme: SignatureScheme): MadeSigningKey {
  if (scheme === 'ed25519') {
    const { secretKey, publicKey } = generateEd25519Pair();
    return { scheme, secretSealed: sealer.seal(secretKey), publicKey, sharedSecret: null };
  }
  const secret = generateWebhookSecret();
  return { scheme, secretSealed: sealer.seal(secret), publicKey: null, sharedSecret: secret };
}
