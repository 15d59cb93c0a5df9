import { generateEd25519Pair, generateWebhookSecret, type SignatureScheme } from '../delivery/sign.js';
import { now } from '../platform/clock.js';
import type { Sealer } from '../platform/crypto.js';
import { AppError, fieldError, notFound } from '../platform/errors.js';
import type { Trx } from '../platform/transaction.js';
import { findWebhook, replaceSigningKey, type NewSigningKey, type WebhookRow } from './webhooks.repository.js';

// The signing keys of a subscription (docs/adr/0084-ed25519-signatures.md): how the service makes one, what a
// scheme allows beside it, and how a new one takes the place of the current one. The secret half is sealed at once
// and never leaves here as text but in the HMAC case, where the shared secret is the very thing the receiver needs
// (shown once). An ed25519 secret key is never shown: its public key is.

/** How long the key before a rotation or a change of scheme keeps signing beside the new one. */
export const PREVIOUS_SECRET_OVERLAP_MS = 24 * 3600 * 1000;

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

/**
 * A legacy secret is a shared HMAC secret: an ed25519 subscription, whose receiver holds nothing that can sign,
 * refuses one (the ADR above). 400 naming `legacySecret`.
 */
export function requireNoLegacySecret(scheme: SignatureScheme, hasLegacySecret: boolean): void {
  if (scheme !== 'ed25519' || !hasLegacySecret) return;
  const message =
    'an ed25519 subscription carries no legacy HMAC signature; leave legacySecret out (or null to remove it)';
  throw fieldError('legacySecret', message);
}

/**
 * The new key in place of the current one, which keeps signing until now + the overlap. The statement names the
 * scheme the key was made to replace: another request that changed the scheme meanwhile wins, and this one is a
 * 409 (nothing written), never a key of one scheme under the other's name.
 */
export async function replaceKeyOrConflict(
  trx: Trx,
  accountId: string,
  id: string,
  from: SignatureScheme,
  key: NewSigningKey,
): Promise<WebhookRow> {
  const expiresAt = new Date(now().getTime() + PREVIOUS_SECRET_OVERLAP_MS);
  const row = await replaceSigningKey(trx, accountId, id, from, key, expiresAt);
  if (row) return row;
  if (!(await findWebhook(trx, accountId, id))) throw notFound('Webhook');
  throw new AppError('conflict', 'The signature scheme of this webhook changed meanwhile; read it and try again');
}
