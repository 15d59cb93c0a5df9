import { now } from '../platform/clock.js';
import { AppError } from '../platform/errors.js';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import { Cluster } from 'ioredis';
import { createWorkerRedis, type RedisClient } from '../platform/redis.js';
import {
  replyChannelOfToken,
  streamChannel,
  type RoutedStreamReport,
  type StreamDelivery,
} from '../delivery/transports/stream-messages.js';

// The web process's side of stream destinations: one Redis subscription per process, one channel per connected
// stream, and the deliveries that arrive on a channel written down that stream's connection. A delivery still
// unreported when its session ends is answered at once on the worker's behalf (connection_refused), so the worker
// records the attempt now rather than at its timeout (docs/adr/0054-stream-destinations.md).

export interface StreamSink {
  /** Writes one delivery down the connection (an SSE event). */
  deliver(delivery: StreamDelivery): void;
  /** Ends the connection, telling the CLI why; its close then closes the stream. */
  end(reason: string): void;
}

export interface StreamHub {
  /** Subscribes the stream's channel (resolved once subscribed) and routes its deliveries to `sink`. */
  attach(webhookId: string, sink: StreamSink): Promise<void>;
  /** Unsubscribes, and answers each delivery sent down it and not reported yet. */
  detach(webhookId: string, reason: string): Promise<void>;
  /** A report from the CLI, to the worker waiting for it (any web process may take the report). */
  report(report: RoutedStreamReport): Promise<void>;
  /**
   * How many processes hold each stream now (0: its session is gone without closing it); null on a Redis Cluster,
   * where a node counts only its own subscribers.
   */
  holders(webhookIds: string[]): Promise<number[] | null>;
  /**
   * At shutdown: ends every stream this process holds and waits (up to `waitMs`) until each is closed, so the
   * server's drain does not wait on connections that never end and every CLI learns why.
   */
  endAll(reason: string, waitMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** How long opening a stream waits for its channel subscription. */
const SUBSCRIBE_MS = 5000;

interface Attached {
  sink: StreamSink;
  /** Deliveries sent down the stream, not reported through this process, by token (pruned past the timeout). */
  unreported: Map<string, { deliveryId: string; at: number }>;
}

export function createStreamHub(config: Config, redis: RedisClient, logger: Logger): StreamHub {
  const prefix = config.bullmqPrefix;
  const attached = new Map<string, Attached>();
  let subscriber: RedisClient | undefined;

  const connect = (): RedisClient => {
    if (subscriber) return subscriber;
    const sub = createWorkerRedis(config.redis);
    sub.on('error', (err: Error) => logger.warn({ err: err.message }, 'stream subscription error'));
    sub.on('message', (channel: string, message: string) => {
      const webhookId = channel.slice(streamChannel(prefix, '').length);
      const stream = attached.get(webhookId);
      if (!stream) return;
      let delivery: StreamDelivery;
      try {
        delivery = JSON.parse(message);
      } catch {
        return;
      }
      const at = now().getTime();
      for (const [token, u] of stream.unreported) {
        if (at - u.at > config.webhooks.timeoutMs) stream.unreported.delete(token);
      }
      stream.unreported.set(delivery.token, { deliveryId: delivery.deliveryId, at });
      stream.sink.deliver(delivery);
    });
    subscriber = sub;
    return sub;
  };

  const publishReport = async (report: RoutedStreamReport) => {
    const channel = replyChannelOfToken(prefix, report.token);
    if (channel) await redis.publish(channel, JSON.stringify(report));
  };

  return {
    async attach(webhookId, sink) {
      attached.set(webhookId, { sink, unreported: new Map() });
      // The subscription connection waits for Redis forever (it resubscribes after a reconnect); opening a stream
      // does not: Redis away is a 503 now.
      let timer: NodeJS.Timeout | undefined;
      const away = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new AppError('unavailable', 'Redis is not answering; try again')),
          SUBSCRIBE_MS,
        );
      });
      try {
        await Promise.race([connect().subscribe(streamChannel(prefix, webhookId)), away]);
      } catch (err) {
        attached.delete(webhookId);
        throw err;
      } finally {
        clearTimeout(timer);
      }
    },
    async detach(webhookId, reason) {
      const stream = attached.get(webhookId);
      attached.delete(webhookId);
      await subscriber?.unsubscribe(streamChannel(prefix, webhookId)).catch(() => undefined);
      if (!stream) return;
      await Promise.all(
        [...stream.unreported].map(([token, u]) =>
          publishReport({
            token,
            webhookId,
            deliveryId: u.deliveryId,
            status: null,
            durationMs: 0,
            error: 'connection_refused',
            message: reason,
            body: null,
          }).catch(() => undefined),
        ),
      );
    },
    async report(report) {
      attached.get(report.webhookId)?.unreported.delete(report.token);
      await publishReport(report);
    },
    async holders(webhookIds) {
      if (webhookIds.length === 0) return [];
      if (redis instanceof Cluster) return null;
      const answer = (await redis.call(
        'PUBSUB',
        'NUMSUB',
        ...webhookIds.map((id) => streamChannel(prefix, id)),
      )) as Array<string | number>;
      return webhookIds.map((_id, i) => Number(answer[i * 2 + 1]));
    },
    async endAll(reason, waitMs = 2000) {
      for (const stream of attached.values()) stream.sink.end(reason);
      const deadline = now().getTime() + waitMs;
      while (attached.size > 0 && now().getTime() < deadline) await new Promise((r) => setTimeout(r, 20));
    },
    async close() {
      subscriber?.disconnect();
    },
  };
}
