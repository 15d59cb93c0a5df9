import { isIP } from 'node:net';

// Which addresses an outbound request may dial (docs/adr/0017-webhook-targets.md). IPv6 forms that carry an IPv4
// address
// (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are judged by the IPv4 address they carry, so
// `::ffff:127.0.0.1`, `64:ff9b::7f00:1` and `2002:7f00:1::` are as blocked as `127.0.0.1`.

type Range4 = [base: number, bits: number, reason: string];

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

const BLOCKED_V4: Range4[] = [
  [v4(0, 0, 0, 0), 8, 'unspecified/"this network"'],
  [v4(10, 0, 0, 0), 8, 'private (RFC 1918)'],
  [v4(100, 64, 0, 0), 10, 'carrier-grade NAT'],
  [v4(127, 0, 0, 0), 8, 'loopback'],
  [v4(169, 254, 0, 0), 16, 'link-local / cloud metadata'],
  [v4(172, 16, 0, 0), 12, 'private (RFC 1918)'],
  [v4(192, 0, 0, 0), 24, 'IETF protocol assignments'],
  [v4(192, 0, 2, 0), 24, 'documentation'],
  [v4(192, 88, 99, 0), 24, '6to4 relay anycast'],
  [v4(192, 168, 0, 0), 16, 'private (RFC 1918)'],
  [v4(198, 18, 0, 0), 15, 'benchmarking'],
  [v4(198, 51, 100, 0), 24, 'documentation'],
  [v4(203, 0, 113, 0), 24, 'documentation'],
  [v4(224, 0, 0, 0), 4, 'multicast'],
  [v4(240, 0, 0, 0), 4, 'reserved / broadcast'],
];

/** Host names that are internal whatever they resolve to. */
const BLOCKED_NAMES = [/^localhost$/, /\.localhost$/, /^metadata\.google\.internal$/, /^metadata$/, /\.internal$/];

function inRange4(addr: number, [base, bits]: Range4): boolean {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (addr & mask) >>> 0 === (base & mask) >>> 0;
}

function parseV4(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return v4(Number(parts[0]), Number(parts[1]), Number(parts[2]), Number(parts[3]));
}

/** 16 bytes of an IPv6 address in any textual form (zone id dropped, embedded dotted quad allowed). */
export function parseV6(input: string): Uint8Array | null {
  let ip = input.replace(/^\[|\]$/g, '');
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  if (isIP(ip) !== 6) return null;
  const words: number[] = [];
  const tailV4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (tailV4) {
    const n = parseV4(tailV4[1]!);
    if (n === null) return null;
    ip = ip.slice(0, -tailV4[1]!.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = ip.split('::') as [string, string | undefined];
  const headWords = head ? head.split(':').map((w) => parseInt(w, 16)) : [];
  const tailWords = tail ? tail.split(':').map((w) => parseInt(w, 16)) : [];
  const fill = tail === undefined ? 0 : 8 - headWords.length - tailWords.length;
  words.push(...headWords, ...new Array<number>(fill).fill(0), ...tailWords);
  if (words.length !== 8) return null;
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[i * 2] = w >> 8;
    bytes[i * 2 + 1] = w & 0xff;
  });
  return bytes;
}

function checkV4(addr: number): string | null {
  if (addr === v4(255, 255, 255, 255)) return 'broadcast';
  for (const r of BLOCKED_V4) if (inRange4(addr, r)) return r[2];
  return null;
}

const word = (b: Uint8Array, i: number) => (b[i * 2]! << 8) | b[i * 2 + 1]!;
const v4At = (b: Uint8Array, offset: number) => v4(b[offset]!, b[offset + 1]!, b[offset + 2]!, b[offset + 3]!);

function checkV6(b: Uint8Array): string | null {
  const w = Array.from({ length: 8 }, (_, i) => word(b, i));
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && w[5] === 0xffff) return embedded('IPv4-mapped', v4At(b, 12));
  if (zeros(0, 6)) {
    if (w[6] === 0 && w[7] === 0) return 'unspecified';
    if (w[6] === 0 && w[7] === 1) return 'loopback';
    return embedded('IPv4-compatible', v4At(b, 12));
  }
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return embedded('IPv4-translated', v4At(b, 12));
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return embedded('NAT64', v4At(b, 12));
  if (w[0] === 0x64 && w[1] === 0xff9b) return 'NAT64 (local-use)';
  if (w[0] === 0x2002) return embedded('6to4', v4At(b, 2));
  // Only global unicast (2000::/3) is dialable; this covers ULA fc00::/7 (and fd00:ec2::254), link-local
  // fe80::/10, site-local, multicast ff00::/8, discard-only 100::/64 and the rest of ::/8.
  if ((w[0]! & 0xe000) !== 0x2000) return 'not global unicast (loopback, ULA, link-local, multicast or reserved)';
  if (w[0] === 0x2001 && w[1]! < 0x200) return 'IETF protocol assignments (Teredo, ORCHID, benchmarking)';
  if (w[0] === 0x2001 && w[1] === 0xdb8) return 'documentation';
  if (w[0] === 0x3fff && w[1]! < 0x1000) return 'documentation';
  return null;
}

function embedded(form: string, addr: number): string | null {
  const reason = checkV4(addr);
  return reason ? `${form} form of a ${reason} address` : null;
}

/** Why an IP address must not be dialled, or null when it is a public address. Non-IPs are reported too. */
export function blockedAddressReason(ip: string): string | null {
  const n = parseV4(ip);
  if (n !== null) return checkV4(n);
  const b = parseV6(ip);
  if (b) return checkV6(b);
  return 'not an IP address';
}

/** Why a host name is internal by name alone (before any resolution), or null. */
export function blockedHostnameReason(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return BLOCKED_NAMES.some((re) => re.test(name)) ? 'an internal host name' : null;
}

/** The bare address of a URL host when it is an IP literal ('[::1]' → '::1'), else null. */
export function ipLiteralOf(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return isIP(bare) ? bare : null;
}
