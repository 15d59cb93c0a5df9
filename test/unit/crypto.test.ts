import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createSealer, hashPassword, safeEqual, sha256Hex, verifyPassword } from '../../src/platform/crypto.js';
import { newId, randomBase62 } from '../../src/platform/ids.js';
import { createLogger } from '../../src/platform/logger.js';

describe('secrets at rest', () => {
  const sealer = createSealer('an-app-secret-of-at-least-32-characters', 'webhook-secret');

  it('round-trips and never stores the plaintext', () => {
    const sealed = sealer.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(sealer.open(sealed)).toBe('whsec_abc');
    expect(sealer.seal('whsec_abc')).not.toBe(sealed); // fresh IV each time
  });

  it('refuses a tampered value, another purpose and another app secret', () => {
    const sealed = sealer.seal('whsec_abc');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64');
    body[0] = body[0]! ^ 1;
    expect(() => sealer.open([...parts.slice(0, 3), body.toString('base64')].join('.'))).toThrow();
    expect(() => createSealer('an-app-secret-of-at-least-32-characters', 'integration').open(sealed)).toThrow();
    expect(() => createSealer('another-app-secret-of-32-characters!!', 'webhook-secret').open(sealed)).toThrow();
  });
});

describe('passwords and comparisons', () => {
  it('hashes with scrypt and verifies only the right password', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$/);
    expect(stored).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterx', stored)).toBe(false);
  });

  it('compares in constant time, including different lengths', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(sha256Hex('x')).toHaveLength(64);
  });
});

describe('ids', () => {
  it('prefixes ids and draws uniform base62', () => {
    expect(newId('agt')).toMatch(/^agt_[0-9A-Za-z]{20}$/);
    const s = randomBase62(62 * 200);
    const counts = new Map<string, number>();
    for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
  });
});

describe('logger', () => {
  it('redacts authorization headers, passwords, tokens and secrets', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const capture = createLogger('info', 'test', sink);
    capture.info(
      {
        req: { headers: { authorization: 'Bearer ca_acct_SECRET' } },
        body: { password: 'hunter22', secret: 'whsec_X', token: 'ca_sess_Y' },
      },
      'x',
    );
    const out = lines.join('');
    expect(out).not.toMatch(/ca_acct_SECRET|hunter22|whsec_X|ca_sess_Y/);
    expect(out).toContain('[redacted]');
  });
});
