import { BlockList, isIP } from 'node:net';

// A connect-time check of where an integration would make the workers connect. The send path re-checks at
// connection time through the SSRF-safe client; this catches the obvious cases early, with a clear 400.

const privateRanges = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) privateRanges.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv6');
}

/** True for loopback, private, link-local, metadata and other non-public literal addresses or local names. */
export function isNonPublicHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true;
  const family = isIP(h);
  if (family === 0) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) return privateRanges.check(mapped[1]!, 'ipv4');
  return privateRanges.check(h, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why an HTTP provider URL is refused, or null when it is acceptable. */
export function describeUrlProblem(raw: string, allowPrivateTargets: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not contain credentials; send them as headers';
  if (url.protocol !== 'https:' && !(allowPrivateTargets && url.protocol === 'http:')) return 'must be an https:// URL';
  if (!allowPrivateTargets && isNonPublicHost(url.hostname)) return 'must be a public address';
  return null;
}
