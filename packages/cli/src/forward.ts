import { performance } from 'node:perf_hooks';
import type { StreamDelivery } from './stream-delivery.js';

// One delivery from the stream POSTed to the developer's local receiver, exactly as the worker would have sent it
// (the same headers, the same raw body), and what happened, in the shape the report route takes.

export interface LocalOutcome {
  status: number | null;
  durationMs: number;
  error: 'timeout' | 'connection_refused' | 'dns_failed' | 'tls' | null;
  message: string | null;
  body: string | null;
}

const MAX_BODY = 4096;

/** The API stores what it is told as text: a NUL (which Postgres refuses) becomes U+FFFD, as the worker does. */
const storable = (s: string) => s.replaceAll('\0', '\uFFFD');

function errorCodeOf(err: unknown): LocalOutcome['error'] {
  const code = String((err as { cause?: { code?: string } }).cause?.code ?? (err as { name?: string }).name ?? '');
  if (code === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return 'timeout';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns_failed';
  if (/CERT|SSL|TLS/.test(code)) return 'tls';
  return 'connection_refused';
}

/** `ended` aborts the POST when the session ends: the service has recorded the attempt as interrupted already. */
export async function forwardDelivery(
  url: string,
  d: StreamDelivery,
  timeoutMs: number,
  ended: AbortSignal,
): Promise<LocalOutcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: d.headers,
      body: d.body,
      redirect: 'manual',
      signal: AbortSignal.any([ended, AbortSignal.timeout(timeoutMs)]),
    });
    const text = await res.text();
    return {
      status: res.status,
      durationMs: took(),
      error: null,
      message: null,
      body: storable(text.slice(0, MAX_BODY)),
    };
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return {
      status: null,
      durationMs: took(),
      error: errorCodeOf(err),
      message: storable((cause ?? (err as Error).message).slice(0, 500)),
      body: null,
    };
  }
}
