import type { Context } from 'koa';

/**
 * The client address: the socket peer, unless TRUST_PROXY_HOPS says that many proxies in front of us append
 * to X-Forwarded-For. Then we take the entry that the outermost trusted proxy saw; anything further left was
 * written by the client and is ignored.
 */
export function clientIp(ctx: Context, trustProxyHops: number): string {
  const socketIp = normalizeIp(ctx.req.socket.remoteAddress ?? '');
  if (trustProxyHops <= 0) return socketIp;
  const header = ctx.get('x-forwarded-for');
  if (!header) return socketIp;
  const chain = header
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const index = chain.length - trustProxyHops;
  return normalizeIp(chain[Math.max(index, 0)] ?? socketIp);
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) is reported as plain IPv4. */
export function normalizeIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}
