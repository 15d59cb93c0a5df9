import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Config } from '../../platform/config.js';
import type { Db } from '../../platform/db.js';
import type { SafeResponse } from '../../platform/http-client.js';
import type { Logger } from '../../platform/logger.js';
import { Cluster } from 'ioredis';
import { createWorkerRedis, type RedisClient } from '../../platform/redis.js';
import { toStorableTextOrNull } from '../../platform/text.js';
import { closeStreams } from '../sql/subscriptions.js';
import type { Transport } from '../transport.js';
import { replyChannel, streamChannel, type RoutedStreamReport } from './stream-messages.js';

// The worker's side of a stream destination: instead of POSTing, it publishes the signed request to the channel
// of the web process that holds the stream, and waits, at most WEBHOOK_TIMEOUT_MS, for the CLI's report to come
// back on this process's reply channel. The answer is a SafeResponse like an HTTP attempt's, so the attempt goes
// through the same retry policy and transitions (docs/adr/0054-stream-destinations.md). A stream already holding
// WEBHOOK_STREAM_IN_FLIGHT unreported deliveries answers busy: the delivery waits, as a throttled one does.

/** How long a delivery to a full stream waits before it asks again (plus up to 100 ms, so waiters spread). */
const STREAM_FULL_WAIT_MS = 250;

/** The message of the attempt made when no web process holds the stream any more. */
const NO_HOLDER = 'No listen session holds this stream';

// Admission to a stream's in-flight set: one entry per delivery handed over, expiring with its wait, so a worker
// killed mid-wait frees its place on its own. Redis's clock, so hosts need not agree.
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + 1000)
return 1
`;

/** This process's reply channel: the CLI's reports come back on it, each settling the wait its token names. */
interface Replies {
  processId: string;
  /** Subscribes at the first call; answers once subscribed. */
  listen(): Promise<unknown>;
  /** The report for `token`, or null after `timeoutMs`; `end` stops waiting. */
  wait(
    token: string,
    webhookId: string,
    deliveryId: string,
    timeoutMs: number,
  ): { report: Promise<Report>; end(): void };
  close(): void;
}

type Report = RoutedStreamReport | null;

function createReplies(config: Config, logger: Logger): Replies {
  const processId = randomUUID();
  const waiting = new Map<string, { webhookId: string; deliveryId: string; done: (r: Report) => void }>();
  let subscriber: RedisClient | undefined;
  let ready: Promise<unknown> | undefined;
  const onMessage = (_channel: string, message: string) => {
    let report: RoutedStreamReport & { token: string };
    try {
      report = JSON.parse(message);
    } catch {
      return;
    }
    const w = waiting.get(report.token);
    // Only the delivery this token was given for, on the stream it was sent down, settles the wait.
    if (w && w.webhookId === report.webhookId && w.deliveryId === report.deliveryId) w.done(report);
  };
  return {
    processId,
    listen() {
      if (ready) return ready;
      subscriber = createWorkerRedis(config.redis);
      subscriber.on('error', (err: Error) => logger.warn({ err: err.message }, 'stream reply subscription error'));
      subscriber.on('message', onMessage);
      ready = subscriber.subscribe(replyChannel(config.bullmqPrefix, processId)).catch((err: unknown) => {
        ready = undefined;
        throw err;
      });
      return ready;
    },
    wait(token, webhookId, deliveryId, timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const report = new Promise<Report>((resolve) => {
        timer = setTimeout(() => resolve(null), timeoutMs);
        waiting.set(token, { webhookId, deliveryId, done: resolve });
      });
      return {
        report,
        end: () => {
          clearTimeout(timer);
          waiting.delete(token);
        },
      };
    },
    close: () => subscriber?.disconnect(),
  };
}

/**
 * Built with the runtime; connects nothing until the first stream delivery (web-only processes never do). `redis`
 * is the runtime's command connection; the reply subscription gets a connection of its own. A stream that no web
 * process holds any more (its session ended unclosed) is closed at its first attempt, so its retries stop.
 */
export function createStreamTransport(config: Config, db: Db, redis: RedisClient, logger: Logger): Transport {
  const { timeoutMs, streamInFlight } = config.webhooks;
  const prefix = config.bullmqPrefix;
  const replies = createReplies(config, logger);
  return {
    async send({ accountId, webhookId, deliveryId, event, attempt, headers, body }) {
      await replies.listen();
      const token = `${replies.processId}.${randomUUID()}`;
      const inFlight = `${prefix}:stream-in-flight:${webhookId}`;
      const admitted = await redis.eval(ADMIT, 1, inFlight, token, String(timeoutMs), String(streamInFlight));
      if (Number(admitted) !== 1) return { busy: true, waitMs: STREAM_FULL_WAIT_MS + Math.floor(Math.random() * 100) };
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const { report, end } = replies.wait(token, webhookId, deliveryId, timeoutMs);
      try {
        const message = JSON.stringify({ token, deliveryId, event, attempt, headers, body });
        const receivers = await redis.publish(streamChannel(prefix, webhookId), message);
        // On a Redis Cluster a node counts only its own subscribers: there a missing holder shows as a timeout.
        if (receivers === 0 && !(redis instanceof Cluster)) {
          await closeStreams(db, accountId, [webhookId]);
          return { ok: false, error: 'connection_refused', message: NO_HOLDER, durationMs: elapsed() };
        }
        const answer = await report;
        if (answer) return toSafeResponse(answer);
        const silent = `The listening CLI did not report within ${timeoutMs} ms`;
        return { ok: false, error: 'timeout', message: silent, durationMs: elapsed() };
      } finally {
        end();
        await redis.zrem(inFlight, token).catch(() => undefined);
      }
    },
    async close() {
      replies.close();
    },
  };
}

/** The CLI's report as an attempt's outcome: its local status and duration, or its local error; no receiver headers. */
function toSafeResponse(r: RoutedStreamReport): SafeResponse {
  const body = toStorableTextOrNull(r.body) ?? '';
  if (r.status !== null && r.status >= 200 && r.status < 300) {
    return { ok: true, status: r.status, body, durationMs: r.durationMs };
  }
  if (r.status !== null) {
    return {
      ok: false,
      error: 'http_status',
      status: r.status,
      body,
      durationMs: r.durationMs,
      message: `HTTP ${r.status}`,
    };
  }
  return {
    ok: false,
    error: r.error ?? 'connection_refused',
    durationMs: r.durationMs,
    message: toStorableTextOrNull(r.message) ?? 'The local receiver did not answer',
  };
}
