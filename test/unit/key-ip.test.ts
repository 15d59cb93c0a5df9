import { describe, expect, it } from 'vitest';
import { ipAllowed, isValidIpRange, parseIp, parseIpRange } from '../../src/auth/key-ip.js';

describe('allowedIps entries', () => {
  it.each([
    '203.0.113.7',
    '203.0.113.0/24',
    '10.0.0.0/8',
    '0.0.0.0/0',
    '2001:db8::1',
    '2001:db8::/32',
    '::/0',
    '::1',
    '::ffff:192.0.2.1',
    '::ffff:192.0.2.0/120',
    'fe80::/10',
    '192.168.1.1/32',
  ])('accepts %s', (entry) => {
    expect(isValidIpRange(entry)).toBe(true);
  });

  it.each([
    '',
    'abc',
    '1.2.3',
    '256.1.1.1',
    '10.0.0.0/33',
    '10.0.0.0/-1',
    '10.0.0.0/',
    '/8',
    '10.0.0.0/8/8',
    '10.0.0.0/08',
    '10.0.0.0/ 8',
    '2001:db8::/129',
    '2001:db8:::1',
    'fe80::1%eth0',
    '::ffff:10.0.0.0/95',
    '1.2.3.4.5',
    '01.2.3.4',
    'localhost',
    '10.0.0.0/abc',
    '12345::',
  ])('rejects %s', (entry) => {
    expect(isValidIpRange(entry)).toBe(false);
  });
});

describe('ipAllowed', () => {
  it('allows every source when the list is empty', () => {
    expect(ipAllowed([], '198.51.100.1')).toBe(true);
    expect(ipAllowed([], '2001:db8::1')).toBe(true);
  });

  it('matches exact IPv4 addresses and CIDR ranges, boundaries included', () => {
    expect(ipAllowed(['203.0.113.7'], '203.0.113.7')).toBe(true);
    expect(ipAllowed(['203.0.113.7'], '203.0.113.8')).toBe(false);
    expect(ipAllowed(['203.0.113.0/24'], '203.0.113.0')).toBe(true);
    expect(ipAllowed(['203.0.113.0/24'], '203.0.113.255')).toBe(true);
    expect(ipAllowed(['203.0.113.0/24'], '203.0.114.0')).toBe(false);
    expect(ipAllowed(['203.0.113.0/24'], '203.0.112.255')).toBe(false);
    expect(ipAllowed(['0.0.0.0/0'], '8.8.8.8')).toBe(true);
  });

  it('masks host bits written into a range', () => {
    expect(ipAllowed(['10.1.2.3/8'], '10.200.0.1')).toBe(true);
    expect(parseIpRange('10.1.2.3/8')).toMatchObject({ version: 4, prefix: 8, value: 10n << 24n });
  });

  it('matches IPv6 addresses and ranges', () => {
    expect(ipAllowed(['2001:db8::/32'], '2001:db8:ffff::1')).toBe(true);
    expect(ipAllowed(['2001:db8::/32'], '2001:db9::1')).toBe(false);
    expect(ipAllowed(['2001:db8::1'], '2001:0db8:0000:0000:0000:0000:0000:0001')).toBe(true);
    expect(ipAllowed(['::1'], '127.0.0.1')).toBe(false);
  });

  it('matches an IPv4-mapped IPv6 source as IPv4, and a mapped rule as the IPv4 range it names', () => {
    expect(ipAllowed(['192.0.2.0/24'], '::ffff:192.0.2.9')).toBe(true);
    expect(ipAllowed(['192.0.2.0/24'], '::ffff:c000:0209')).toBe(true);
    expect(ipAllowed(['192.0.2.0/24'], '::ffff:192.0.3.9')).toBe(false);
    expect(ipAllowed(['::ffff:192.0.2.0/120'], '192.0.2.200')).toBe(true);
    expect(ipAllowed(['::ffff:192.0.2.1'], '192.0.2.1')).toBe(true);
    expect(parseIp('::ffff:127.0.0.1')).toEqual({ version: 4, value: 0x7f000001n });
  });

  it('never lets an IPv4 rule match an IPv6 source of the same bits, or the reverse', () => {
    expect(ipAllowed(['0.0.0.0/0'], '::1')).toBe(false);
    expect(ipAllowed(['::/0'], '10.0.0.1')).toBe(false);
    expect(ipAllowed(['::/96'], '10.0.0.1')).toBe(false);
  });

  it('rejects an unparseable source and ignores an unparseable stored rule', () => {
    expect(ipAllowed(['10.0.0.0/8'], 'not-an-ip')).toBe(false);
    expect(ipAllowed(['garbage', '10.0.0.0/8'], '10.0.0.1')).toBe(true);
  });

  it('drops an interface zone from the source', () => {
    expect(ipAllowed(['fe80::/10'], 'fe80::1%eth0')).toBe(true);
  });
});
