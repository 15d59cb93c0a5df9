import { describe, expect, it } from 'vitest';
import { describeRedis } from '../../src/platform/redis.js';
import { withoutPassword } from '../../src/platform/url-password.js';

describe('withoutPassword', () => {
  it('hides a password in the user part and in a ?password= parameter, and keeps the rest', () => {
    const shown = withoutPassword(
      'postgres://app:s3cret-pw@db.example.com:5432/switchboard?sslmode=require&password=other-pw',
    );
    expect(shown).not.toContain('s3cret-pw');
    expect(shown).not.toContain('other-pw');
    expect(shown).toBe('postgres://app:***@db.example.com:5432/switchboard?sslmode=require&password=***');
  });

  it('leaves a URL without a password as it is, and never echoes one it cannot parse', () => {
    expect(withoutPassword('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(withoutPassword('not a url with hunter2')).toBe('(unparsable URL)');
  });

  it('is what describeRedis shows for a single server', () => {
    expect(describeRedis('redis://:r3dis-pw@cache.internal:6380/2')).toBe('redis://:***@cache.internal:6380/2');
  });
});
