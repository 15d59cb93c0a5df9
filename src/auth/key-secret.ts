import { crc32 } from 'node:zlib';
import { sha256Hex } from '../platform/crypto.js';
import { randomBase62, toBase62 } from '../platform/ids.js';

// Key secrets (docs/adr/0007-key-secrets.md): prefix + 32 random base62 characters + a 6-character base62 CRC32 of
// those 32.
// The checksum lets secret scanners and this service reject a mistyped or invented string offline,
// before any database lookup.

export const ACCOUNT_KEY_PREFIX = 'ca_acct_';
export const AGENT_KEY_PREFIX = 'ca_agt_';
export type KeyType = 'account' | 'agent';

const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const SECRET_PATTERN = /^(ca_acct_|ca_agt_)([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

export const prefixOf = (keyType: KeyType): string => (keyType === 'account' ? ACCOUNT_KEY_PREFIX : AGENT_KEY_PREFIX);

export const checksumOf = (body: string): string => toBase62(crc32(body) >>> 0, CHECKSUM_LENGTH);

export interface NewSecret {
  secret: string;
  hash: string;
}

export function generateSecret(keyType: KeyType): NewSecret {
  const body = randomBase62(BODY_LENGTH);
  const secret = prefixOf(keyType) + body + checksumOf(body);
  return { secret, hash: hashSecret(secret) };
}

export const hashSecret = (secret: string): string => sha256Hex(secret);

/** The key type a well-formed secret claims, or null when its shape or checksum is wrong. */
export function parseSecret(token: string): KeyType | null {
  const match = SECRET_PATTERN.exec(token);
  if (!match) return null;
  const [, prefix, body, checksum] = match;
  if (checksumOf(body!) !== checksum) return null;
  return prefix === ACCOUNT_KEY_PREFIX ? 'account' : 'agent';
}

export const looksLikeKey = (token: string): boolean =>
  token.startsWith(ACCOUNT_KEY_PREFIX) || token.startsWith(AGENT_KEY_PREFIX);
