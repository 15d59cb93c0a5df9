import { createHash, createPrivateKey, hkdfSync, type JsonWebKey } from 'node:crypto';

// Key material of the authorization server, derived from APP_SECRET so that every API instance signs and
// verifies with the same keys and nothing extra has to be stored or distributed. Rotating APP_SECRET rotates
// them (and ends OAuth sessions in flight; issued opaque tokens keep working, they are not signed).

const derive = (appSecret: string, purpose: string) =>
  Buffer.from(hkdfSync('sha256', appSecret, 'switchboard', purpose, 32));

// PKCS#8 DER prefix of an Ed25519 private key; the 32 bytes after it are the seed.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The Ed25519 signing key (ID tokens, should a client ask for one) as a private JWK. */
export function signingJwk(appSecret: string): JsonWebKey {
  const key = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, derive(appSecret, 'oauth-signing-key')]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = key.export({ format: 'jwk' });
  const kid = createHash('sha256').update(String(jwk.x)).digest('base64url').slice(0, 16);
  return { ...jwk, kid, use: 'sig', alg: 'EdDSA' };
}

/** The key that signs the authorization server's cookies (its session and interaction state). */
export const cookieKey = (appSecret: string): string => derive(appSecret, 'oauth-cookie-key').toString('base64url');

/** The key of the consent and login forms' CSRF tokens. */
export const csrfKey = (appSecret: string): Buffer => derive(appSecret, 'oauth-csrf-key');
