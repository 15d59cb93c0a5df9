// STUB, written on the cli branch only so the CLI can be built, packed and tested against the receiver library's
// API before that library lands. The receiver library's own branch replaces this file (and this package's
// package.json) at merge. It checks the t=/v1= HMAC header only.
import { createHmac, timingSafeEqual } from 'node:crypto';

export class WebhookVerificationError extends Error {
  constructor(readonly reason: string) {
    super(`webhook verification failed: ${reason}`);
    this.name = 'WebhookVerificationError';
  }
}

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

const headerOf = (headers: Headers, name: string): string | undefined => {
  if (typeof (headers as { get?: unknown }).get === 'function')
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
};

export async function verify(
  rawBody: string | Uint8Array,
  headers: Headers,
  key: string | string[],
  { toleranceSeconds = 300 }: { toleranceSeconds?: number } = {},
): Promise<unknown> {
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const header = headerOf(headers, 'x-switchboard-signature');
  if (!header) throw new WebhookVerificationError('missing_signature');
  const parts = header.split(',');
  const ts = Number(parts.find((p) => p.startsWith('t='))?.slice(2));
  if (!ts || Math.abs(Date.now() / 1000 - ts) > toleranceSeconds) throw new WebhookVerificationError('timestamp');
  const matches = (k: string) => {
    const expected = Buffer.from(createHmac('sha256', k).update(`${ts}.${body}`).digest('hex'));
    return parts.some((p) => {
      const got = Buffer.from(p.slice(3));
      return p.startsWith('v1=') && got.length === expected.length && timingSafeEqual(got, expected);
    });
  };
  if (!(Array.isArray(key) ? key : [key]).some(matches)) throw new WebhookVerificationError('signature_mismatch');
  return JSON.parse(body);
}
