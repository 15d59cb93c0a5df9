import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { eventsErrorOf, isFinal, toEventsError, type EventsError } from './errors.ts';
import { cursorKey, type CursorStore } from './cursor-store.ts';
import { RecentIds, type OnEvents } from './handler.ts';
import { backoffMs, delay as realDelay, neverAborted, type BackoffOptions, type Delay } from './timing.ts';
import {
  activeNotification,
  errorNotification,
  eventNotification,
  heartbeatNotification,
  streamResult,
  terminatedNotification,
} from './wire.ts';

export interface StreamOptions {
  /** Connects a fresh Client; the loop owns each one (one stream per connection) and closes it to reconnect. */
  connect: () => Promise<Client>;
  name: string;
  arguments?: Record<string, unknown>;
  /** Where to start; default the stored cursor, else null (from now). */
  cursor?: string | null;
  store?: CursorStore;
  key?: string;
  onEvents: OnEvents;
  /** A transient server-side failure (notifications/events/error): the stream stays open. */
  onError?: (error: EventsError) => void;
  /** Each reconnect, with why (a dropped connection, heartbeat silence, the server ending the stream). */
  onReconnect?: (info: { attempt: number; reason: string }) => void;
  maxAgeMs?: number;
  /** No event or heartbeat for this long means the stream is dead. Default 60 s, twice the 30 s heartbeat. */
  heartbeatTimeoutMs?: number;
  backoff?: BackoffOptions;
  signal?: AbortSignal;
  /** @internal the wait between reconnects. */
  delay?: Delay;
}

/** Why the loop ended: the caller aborted, or the server ended the subscription (it is not reconnected). */
export type StreamEnd = { reason: 'aborted' } | { reason: 'terminated'; error: EventsError };

type Outcome =
  | { kind: 'reconnect'; reason: string }
  | { kind: 'aborted' }
  | { kind: 'terminated'; error: EventsError }
  | { kind: 'failed'; error: unknown };

// setTimeout's longest delay: the stream must not fall to the SDK's default request timeout (the heartbeat is
// its liveness signal).
const NO_TIMEOUT = 2 ** 31 - 1;

/**
 * Holds an `events/stream` open and hands each event to onEvents, persisting the cursor (of events and
 * heartbeats) after it. Reconnects from the persisted cursor, with backoff, when the connection drops, goes
 * silent past heartbeatTimeoutMs, or the server ends the stream; resolves when `signal` aborts or the server
 * sends notifications/events/terminated; rejects when the server refuses the subscription or onEvents throws.
 */
export async function stream(options: StreamOptions): Promise<StreamEnd> {
  const signal = options.signal ?? neverAborted();
  const wait = options.delay ?? realDelay;
  const key = options.key ?? cursorKey(options.name, options.arguments);
  const state = {
    cursor: options.cursor !== undefined ? options.cursor : ((await options.store?.load(key)) ?? null),
    attempt: 0,
    seen: new RecentIds(),
  };
  while (!signal.aborted) {
    let outcome: Outcome;
    try {
      outcome = await runConnection(options, key, state, signal);
    } catch (err) {
      const typed = toEventsError(err);
      if (isFinal(typed)) throw typed;
      outcome = { kind: 'reconnect', reason: err instanceof Error ? err.message : String(err) };
    }
    if (outcome.kind === 'aborted') break;
    if (outcome.kind === 'terminated') return { reason: 'terminated', error: outcome.error };
    if (outcome.kind === 'failed') throw outcome.error;
    if (signal.aborted) break;
    options.onReconnect?.({ attempt: state.attempt, reason: outcome.reason });
    await wait(backoffMs(state.attempt++, options.backoff), signal);
  }
  return { reason: 'aborted' };
}

async function runConnection(
  options: StreamOptions,
  key: string,
  state: { cursor: string | null; attempt: number; seen: RecentIds },
  signal: AbortSignal,
): Promise<Outcome> {
  const client = await options.connect();
  let finish!: (outcome: Outcome) => void;
  let settled = false;
  const outcome = new Promise<Outcome>((resolve) => {
    finish = (o) => {
      if (settled) return;
      settled = true;
      resolve(o);
    };
  });
  // Notifications are handled one at a time, in arrival order; what arrives after the end is left for the next
  // connection, which replays it from the persisted cursor.
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (work: () => void | Promise<void>) => {
    queue = queue
      .then(() => (settled ? undefined : work()))
      .catch((error: unknown) => finish({ kind: 'failed', error }));
  };
  const persist = async (cursor: string | null) => {
    state.cursor = cursor;
    await options.store?.save(key, cursor);
  };
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 60_000;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const alive = () => {
    clearTimeout(deadline);
    deadline = setTimeout(() => finish({ kind: 'reconnect', reason: 'no heartbeat' }), heartbeatTimeoutMs);
  };
  const onAbort = () => finish({ kind: 'aborted' });
  signal.addEventListener('abort', onAbort, { once: true });

  client.onerror = (err) => finish({ kind: 'reconnect', reason: err.message });
  client.onclose = () => finish({ kind: 'reconnect', reason: 'the connection closed' });
  client.setNotificationHandler(activeNotification, ({ params }) => {
    alive();
    state.attempt = 0;
    enqueue(async () => {
      if (params.truncated) await options.onEvents([], { cursor: params.cursor, truncated: true });
      await persist(params.cursor);
    });
  });
  client.setNotificationHandler(eventNotification, ({ params }) => {
    alive();
    enqueue(async () => {
      const cursor = params.cursor ?? null;
      const events = state.seen.fresh([params]);
      if (events.length > 0) await options.onEvents(events, { cursor, truncated: false });
      await persist(cursor);
    });
  });
  client.setNotificationHandler(heartbeatNotification, ({ params }) => {
    alive();
    enqueue(() => persist(params.cursor));
  });
  client.setNotificationHandler(errorNotification, ({ params }) => {
    alive();
    enqueue(() => options.onError?.(eventsErrorOf(params.error)));
  });
  client.setNotificationHandler(terminatedNotification, ({ params }) => {
    enqueue(() => finish({ kind: 'terminated', error: eventsErrorOf(params.error) }));
  });

  const params = {
    name: options.name,
    arguments: options.arguments ?? {},
    cursor: state.cursor,
    ...(options.maxAgeMs === undefined ? {} : { maxAgeMs: options.maxAgeMs }),
  };
  alive();
  client.request({ method: 'events/stream', params }, streamResult, { timeout: NO_TIMEOUT }).then(
    // The final frame can overtake the notifications before it on their way through the SDK's handlers: it
    // ends the stream only after them, so a terminated sent just before it is seen.
    () => setImmediate(() => enqueue(() => finish({ kind: 'reconnect', reason: 'the server ended the stream' }))),
    (err: unknown) => {
      const typed = toEventsError(err);
      finish(isFinal(typed) ? { kind: 'failed', error: typed } : { kind: 'reconnect', reason: String(err) });
    },
  );
  try {
    return await outcome;
  } finally {
    clearTimeout(deadline);
    signal.removeEventListener('abort', onAbort);
    await queue;
    // Closing the transport aborts the stream's HTTP response: on Streamable HTTP that is the cancellation.
    await client.close().catch(() => undefined);
  }
}
