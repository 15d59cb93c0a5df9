import { isIPv4, isIPv6 } from 'node:net';

// allowedIps matching (docs/adr/0010-key-restrictions.md): IPv4 and IPv6 addresses and CIDR ranges. An IPv4-mapped
// IPv6 address
// (::ffff:1.2.3.4), as a source or in a rule, is treated as the IPv4 address it carries. Pure functions.

export interface IpAddress {
  version: 4 | 6;
  value: bigint;
}

export interface IpRange extends IpAddress {
  prefix: number;
}

const bits = (version: 4 | 6) => (version === 4 ? 32 : 128);
const MAPPED_PREFIX = 0xffffn << 32n;

function parseV4(s: string): bigint {
  return s.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function parseV6(s: string): bigint {
  let text = s;
  // A dotted IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) becomes two hex groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const v4 = parseV4(tail[1]!);
    text = text.slice(0, -tail[1]!.length) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** Parses an address; IPv4-mapped IPv6 comes back as IPv4. Zone ids (%eth0) are dropped. Null when invalid. */
export function parseIp(input: string): IpAddress | null {
  const s = input.trim().replace(/%.*$/, '');
  if (isIPv4(s)) return { version: 4, value: parseV4(s) };
  if (!isIPv6(s)) return null;
  const value = parseV6(s);
  if (value >> 32n === MAPPED_PREFIX >> 32n) return { version: 4, value: value & 0xffffffffn };
  return { version: 6, value };
}

/** Parses an allowedIps entry: an address (a single-host range) or CIDR. Null when invalid. */
export function parseIpRange(input: string): IpRange | null {
  const s = input.trim();
  if (s.includes('%')) return null;
  const slash = s.indexOf('/');
  const addressText = slash === -1 ? s : s.slice(0, slash);
  const prefixText = slash === -1 ? null : s.slice(slash + 1);
  if (prefixText !== null && !/^(0|[1-9]\d{0,2})$/.test(prefixText)) return null;
  const isV6Text = isIPv6(addressText);
  const address = parseIp(addressText);
  if (!address) return null;
  let prefix = prefixText === null ? (isV6Text ? 128 : 32) : Number(prefixText);
  if (prefix > (isV6Text ? 128 : 32)) return null;
  if (isV6Text && address.version === 4) {
    // ::ffff:10.0.0.0/104 is 10.0.0.0/8; a mapped range shorter than /96 would reach beyond IPv4.
    if (prefix < 96) return null;
    prefix -= 96;
  }
  return { ...address, value: address.value & maskOf(address.version, prefix), prefix };
}

function maskOf(version: 4 | 6, prefix: number): bigint {
  const width = BigInt(bits(version));
  const hostBits = width - BigInt(prefix);
  return ((1n << width) - 1n) ^ ((1n << hostBits) - 1n);
}

export const isValidIpRange = (input: string): boolean => parseIpRange(input) !== null;

export function rangeContains(range: IpRange, address: IpAddress): boolean {
  return range.version === address.version && (address.value & maskOf(range.version, range.prefix)) === range.value;
}

/** True when `ip` may use a key restricted to `allowed`. An empty list allows every source. */
export function ipAllowed(allowed: readonly string[], ip: string): boolean {
  if (allowed.length === 0) return true;
  const address = parseIp(ip);
  if (!address) return false;
  return allowed.some((entry) => {
    const range = parseIpRange(entry);
    return range !== null && rangeContains(range, address);
  });
}
