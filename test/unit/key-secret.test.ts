import { describe, expect, it } from 'vitest';
import { checksumOf, generateSecret, hashSecret, parseSecret } from '../../src/auth/key-secret.js';
import { sha256Hex } from '../../src/platform/crypto.js';

describe('key secrets', () => {
  it('has the prefix, 32 random base62 characters and a 6-character CRC32 checksum', () => {
    const { secret, hash } = generateSecret('account');
    expect(secret).toMatch(/^ca_acct_[0-9A-Za-z]{38}$/);
    const body = secret.slice(8, 40);
    expect(secret.slice(40)).toBe(checksumOf(body));
    expect(hash).toBe(sha256Hex(secret));
    expect(hashSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(generateSecret('agent').secret).toMatch(/^ca_agt_[0-9A-Za-z]{38}$/);
  });

  it('never repeats', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => generateSecret('agent').secret));
    expect(seen.size).toBe(1000);
  });

  it('parses a well-formed secret into its claimed key type', () => {
    expect(parseSecret(generateSecret('account').secret)).toBe('account');
    expect(parseSecret(generateSecret('agent').secret)).toBe('agent');
  });

  it('rejects malformed, truncated, wrong-prefix and wrong-checksum strings offline', () => {
    const { secret } = generateSecret('account');
    const body = secret.slice(8, 40);
    const sum = secret.slice(40);
    const flipped = (sum[0] === 'a' ? 'b' : 'a') + sum.slice(1);
    for (const bad of [
      '',
      'ca_acct_',
      secret.slice(0, -1),
      secret + 'x',
      `ca_sess_${body}${sum}`,
      `CA_ACCT_${body}${sum}`,
      `ca_acct_${body}${flipped}`,
      `ca_acct_${body.slice(0, 31)}-${sum}`,
      ` ${secret}`,
      `ca_acct_${body}${sum}\n`,
    ]) {
      expect(parseSecret(bad)).toBeNull();
    }
  });

  it('binds the checksum to the body only: swapping the prefix passes offline, and the hash (over the whole secret) differs', () => {
    const { secret } = generateSecret('account');
    const swapped = 'ca_agt_' + secret.slice(8);
    expect(parseSecret(swapped)).toBe('agent');
    expect(hashSecret(swapped)).not.toBe(hashSecret(secret));
  });

  it('encodes the checksum as fixed-width base62 even for small CRCs', () => {
    for (let i = 0; i < 200; i++) expect(checksumOf(generateSecret('agent').secret.slice(7, 39))).toHaveLength(6);
  });
});
