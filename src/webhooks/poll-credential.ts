import { checksumOf } from '../auth/key-secret.js';
import { sha256Hex } from '../platform/crypto.js';
import { randomBase62 } from '../platform/ids.js';

// A poll subscription's own credential (docs/adr/0089-poll-destinations.md): `whpoll_`, 32 random base62
// characters, then the 6-character base62 CRC32 of those 32, as account keys are made (docs/adr/0007-key-secrets.md),
// so that secret scanners can match the prefix and check the checksum offline. Shown once; stored as its SHA-256.

export const POLL_CREDENTIAL_PREFIX = 'whpoll_';
const CREDENTIAL = /^whpoll_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

export interface NewPollCredential {
  credential: string;
  hash: string;
}

export function generatePollCredential(): NewPollCredential {
  const body = randomBase62(32);
  const credential = POLL_CREDENTIAL_PREFIX + body + checksumOf(body);
  return { credential, hash: sha256Hex(credential) };
}

/** Whether a string has the credential's shape and checksum: a mistyped or invented one is refused unread. */
export function isPollCredential(token: string): boolean {
  const m = CREDENTIAL.exec(token);
  return m !== null && checksumOf(m[1]!) === m[2];
}

export const looksLikePollCredential = (token: string): boolean => token.startsWith(POLL_CREDENTIAL_PREFIX);
