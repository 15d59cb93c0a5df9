import { performance } from 'node:perf_hooks';
import { BlockedAddressError, pickAddress } from '../../platform/http-client.js';
import { toStorableText } from '../../platform/text.js';
import type { BrokerAnswer, BrokerErrorCode } from '../transport.js';
import { BrokerTimeout } from './broker-pool.js';

// What a broker transport records of a failure: a code the stats count and the broker's own words, with the
// credentials of the URL scrubbed out of them, whatever the client library put in its message.

const MAX_MESSAGE = 1000;

/** A failure the transport itself decided (unroutable, nack, connection_lost): its code and the words for it. */
export class BrokerRefusal extends Error {
  constructor(
    readonly error: BrokerErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A stopwatch for one send. */
export function startClock(): () => number {
  const started = performance.now();
  return () => Math.round(performance.now() - started);
}

/**
 * The address to dial for a broker host, through the same guard as webhook URLs (platform/http-client.ts): on
 * every connect, so a name that later resolves inward is refused at the next connection.
 */
export const guardedAddress = (hostname: string, allowPrivate: boolean): Promise<string> =>
  pickAddress(hostname, allowPrivate);

/** A failed attempt's answer for `err`; `secrets` (the URL's password) never reach the message. */
export function brokerFailure(err: unknown, durationMs: number, secrets: string[]): BrokerAnswer {
  const e = err as { code?: string | number; message?: string; name?: string };
  let message = String(e?.message ?? err);
  for (const s of secrets) if (s) message = message.split(s).join('***');
  message = toStorableText(message).slice(0, MAX_MESSAGE);
  return { ok: false, error: classify(err, message), message, durationMs };
}

function classify(err: unknown, message: string): BrokerErrorCode {
  if (err instanceof BrokerRefusal) return err.error;
  if (err instanceof BrokerTimeout) return 'timeout';
  if (err instanceof BlockedAddressError) return 'blocked_address';
  const code = String((err as { code?: unknown })?.code ?? '');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL') return 'dns_failed';
  if (code === 'ETIMEDOUT' || /timed? ?out/i.test(message)) return 'timeout';
  if (/ACCESS.REFUSED|authentication|authoriz|permissions? violation/i.test(message)) return 'auth_failed';
  if (/certificate|tls|ssl/i.test(message)) return 'tls';
  return 'connection_refused';
}
