import { toEventsError, isFinal } from './errors.ts';
import { open, type ClientSource } from './connection.ts';
import { cursorKey, type CursorStore } from './cursor-store.ts';
import { RecentIds, type OnEvents } from './handler.ts';
import { backoffMs, delay as realDelay, neverAborted, type BackoffOptions, type Delay } from './timing.ts';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { pollResult, type PollResult } from './wire.ts';

export interface PollOptions {
  client: ClientSource;
  name: string;
  arguments?: Record<string, unknown>;
  /** Where to start; default the stored cursor, else null (from now). */
  cursor?: string | null;
  store?: CursorStore;
  /** The key in `store`; default cursorKey(name, arguments). */
  key?: string;
  onEvents: OnEvents;
  /** How long the server may hold each poll open. Default 30 s. */
  timeoutMs?: number;
  maxEvents?: number;
  maxAgeMs?: number;
  /** The least wait between polls, whatever nextPollMs says (a guard against a tight loop). Default 1000 ms. */
  minIntervalMs?: number;
  /** Retry waits after a failed request (the connection, a 5xx); a typed EventsError is not retried. */
  backoff?: BackoffOptions;
  signal?: AbortSignal;
  /** @internal the wait between polls. */
  delay?: Delay;
}

/** One `events/poll` request and its answer, for a caller that runs its own loop (or none). */
export async function pollOnce(
  client: Client,
  params: Pick<PollOptions, 'name' | 'arguments' | 'cursor' | 'timeoutMs' | 'maxEvents' | 'maxAgeMs' | 'signal'>,
): Promise<PollResult> {
  const { signal, ...rest } = params;
  const timeoutMs = rest.timeoutMs ?? 0;
  const body = { ...rest, arguments: rest.arguments ?? {}, cursor: rest.cursor ?? null, timeoutMs };
  return client
    .request({ method: 'events/poll', params: body }, pollResult, { signal, timeout: timeoutMs + 30_000 })
    .catch((err: unknown) => {
      throw toEventsError(err);
    });
}

/**
 * Runs `events/poll` until `signal` aborts (then resolves) or the server refuses the subscription (then rejects
 * with its EventsError). While `hasMore` it polls again at once; otherwise it waits nextPollMs (at least
 * minIntervalMs). The cursor is persisted after onEvents resolved.
 */
export async function poll(options: PollOptions): Promise<void> {
  const signal = options.signal ?? neverAborted();
  const wait = options.delay ?? realDelay;
  const key = options.key ?? cursorKey(options.name, options.arguments);
  const timeoutMs = options.timeoutMs ?? 30_000;
  let cursor = options.cursor !== undefined ? options.cursor : ((await options.store?.load(key)) ?? null);
  const seen = new RecentIds();
  const connection = await open(options.client);
  let failures = 0;
  try {
    while (!signal.aborted) {
      const params = {
        name: options.name,
        arguments: options.arguments ?? {},
        cursor,
        timeoutMs,
        ...(options.maxEvents === undefined ? {} : { maxEvents: options.maxEvents }),
        ...(options.maxAgeMs === undefined ? {} : { maxAgeMs: options.maxAgeMs }),
      };
      let result;
      try {
        // The SDK's own timeout must outlast the server's hold.
        result = await connection.client.request({ method: 'events/poll', params }, pollResult, {
          signal,
          timeout: timeoutMs + 30_000,
        });
      } catch (err) {
        if (signal.aborted) return;
        const typed = toEventsError(err);
        if (isFinal(typed)) throw typed;
        await wait(backoffMs(failures++, options.backoff), signal);
        continue;
      }
      failures = 0;
      const events = seen.fresh(result.events);
      if (events.length > 0 || result.truncated) {
        await options.onEvents(events, { cursor: result.cursor, truncated: result.truncated });
      }
      cursor = result.cursor;
      await options.store?.save(key, cursor);
      if (result.hasMore) continue;
      await wait(Math.max(result.nextPollMs ?? 0, options.minIntervalMs ?? 1000), signal);
    }
  } finally {
    await connection.release();
  }
}
