import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { isFinal, toEventsError, type EventsError } from './errors.ts';
import { open, type ClientSource } from './connection.ts';
import { cursorKey, type CursorStore } from './cursor-store.ts';
import type { WebhookReceiver } from './receiver.ts';
import { generateSecret } from './secret.ts';
import { backoffMs, delay as realDelay, neverAborted, type BackoffOptions, type Delay } from './timing.ts';
import { subscribeResult, type SubscribeResult } from './wire.ts';

export interface WebhookOptions {
  client: ClientSource;
  name: string;
  arguments?: Record<string, unknown>;
  /** The callback URL the server POSTs to (https; where `receiver` listens). */
  url: string;
  /** The receiver that verifies the POSTs; the loop tells it the secret and the subscription's id. */
  receiver: WebhookReceiver;
  /** The signing secret; default one generated for this run (the sketch's advice: no hand-picked secrets). */
  secret?: string;
  cursor?: string | null;
  /** Shared with the receiver, which saves each delivery's cursor; every refresh sends the latest. */
  store?: CursorStore;
  key?: string;
  /** The TTL suggested; null asks for no expiry. Default one hour. */
  ttlMs?: number | null;
  maxAgeMs?: number;
  /** When in a grant's lifetime to refresh (0 to 1). Default 0.8: a fifth of the TTL is left for retries. */
  refreshAt?: number;
  /** How often a no-expiry grant is re-subscribed anyway (its cursor, deliveryStatus). Default one hour. */
  healthCheckMs?: number;
  /** Each subscribe and refresh answer (id, refreshBefore, cursor, truncated, deliveryStatus). */
  onSubscribed?: (result: SubscribeResult) => void;
  backoff?: BackoffOptions;
  signal?: AbortSignal;
  /** @internal the wait between refreshes. */
  delay?: Delay;
}

export type WebhookEnd = { reason: 'aborted' } | { reason: 'terminated'; error: EventsError };

/**
 * Subscribes with `events/subscribe` and keeps the subscription alive, refreshing before each refreshBefore with
 * the latest persisted cursor, until `signal` aborts (it then unsubscribes and resolves) or the server ends it
 * with a terminated envelope (resolves with the error). Rejects when the server refuses the subscription.
 */
export async function subscribeWebhook(options: WebhookOptions): Promise<WebhookEnd> {
  const outer = options.signal ?? neverAborted();
  const wait = options.delay ?? realDelay;
  const key = options.key ?? cursorKey(options.name, options.arguments);
  const secret = options.secret ?? generateSecret();
  // A terminated envelope stops the loop as an abort would, but without unsubscribing.
  const stop = new AbortController();
  const onOuterAbort = () => stop.abort();
  outer.addEventListener('abort', onOuterAbort, { once: true });
  const signal = stop.signal;
  let terminated: EventsError | undefined;
  let cursor = options.cursor !== undefined ? options.cursor : ((await options.store?.load(key)) ?? null);
  const forgetSecret = options.receiver.expect(secret);
  let unroute: () => void = () => undefined;
  const connection = await open(options.client).catch((err: unknown) => {
    forgetSecret();
    throw err;
  });
  const delivery = { mode: 'webhook', url: options.url, secret };
  let subscribed = false;
  let failures = 0;
  try {
    while (!signal.aborted) {
      if (options.store && subscribed) cursor = (await options.store.load(key)) ?? cursor;
      const params = {
        name: options.name,
        arguments: options.arguments ?? {},
        delivery,
        cursor,
        ttlMs: options.ttlMs === undefined ? 3_600_000 : options.ttlMs,
        ...(options.maxAgeMs === undefined ? {} : { maxAgeMs: options.maxAgeMs }),
      };
      let result: SubscribeResult;
      try {
        result = await connection.client.request({ method: 'events/subscribe', params }, subscribeResult, { signal });
      } catch (err) {
        if (signal.aborted) break;
        const typed = toEventsError(err);
        if (isFinal(typed)) throw typed;
        await wait(backoffMs(failures++, options.backoff), signal);
        continue;
      }
      failures = 0;
      subscribed = true;
      unroute();
      unroute = options.receiver.route(result.id, {
        key,
        secret,
        onTerminated: (error) => {
          terminated = error;
          stop.abort();
        },
      });
      if (result.truncated) await options.receiver.gap(key, result.cursor);
      else await options.store?.save(key, result.cursor);
      cursor = result.cursor;
      options.onSubscribed?.(result);
      await wait(refreshDelay(result.refreshBefore, options), signal);
    }
  } finally {
    outer.removeEventListener('abort', onOuterAbort);
    if (subscribed && !terminated) await unsubscribe(connection.client, options);
    unroute();
    forgetSecret();
    await connection.release();
  }
  return terminated ? { reason: 'terminated', error: terminated } : { reason: 'aborted' };
}

function refreshDelay(refreshBefore: string | null, options: WebhookOptions): number {
  if (refreshBefore === null) return options.healthCheckMs ?? 3_600_000;
  const remaining = Date.parse(refreshBefore) - Date.now();
  return Math.max(0, Math.floor(remaining * (options.refreshAt ?? 0.8)));
}

// Eager cleanup, not needed for correctness (an unrefreshed subscription lapses): a failure is not reported.
async function unsubscribe(client: Client, options: WebhookOptions) {
  const params = { name: options.name, arguments: options.arguments ?? {}, delivery: { url: options.url } };
  await client
    .request({ method: 'events/unsubscribe', params }, subscribeResult.partial(), { timeout: 10_000 })
    .catch(() => undefined);
}
