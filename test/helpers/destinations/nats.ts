import { randomBytes } from 'node:crypto';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { startNats, type Broker } from '../brokers.js';
import { waitFor } from '../wait.js';
import type { Arrived, Destination, DestinationKindDriver } from './driver.js';

/**
 * nats: a nats-server of the test's own with JetStream; each destination is a stream capturing `<prefix>.>`, read
 * back message by message. Refusing moves the stream to other subjects, so publishes find no stream.
 */
export function natsDriver(): DestinationKindDriver & { broker(): Broker; reconnect(): Promise<void> } {
  let broker: Broker | undefined;
  let nc: NatsConnection | undefined;
  let jsm: JetStreamManager | undefined;
  const reconnect = async () => {
    await nc?.close().catch(() => undefined);
    nc = await connect({ servers: `127.0.0.1:${broker!.port}`, user: broker!.user, pass: broker!.password });
    jsm = await jetstreamManager(nc);
  };
  return {
    kind: 'nats',
    broker: () => broker!,
    reconnect,
    async start() {
      broker = await startNats();
      await reconnect();
    },
    async destination(): Promise<Destination> {
      const prefix = `sbt${randomBytes(4).toString('hex')}`;
      const stream = prefix.toUpperCase();
      await jsm!.streams.add({ name: stream, subjects: [`${prefix}.>`] });
      const delivered: Arrived[] = [];
      const refresh = async () => {
        const info = await jsm!.streams.info(stream);
        for (let seq = delivered.length + 1; seq <= info.state.last_seq; seq++) {
          const m = (await jsm!.streams.getMessage(stream, { seq }))!;
          const headers: Record<string, string> = {};
          for (const k of m.header?.keys() ?? []) headers[k.toLowerCase()] = m.header.get(k);
          const raw = new TextDecoder().decode(m.data);
          delivered.push({
            headers,
            raw,
            body: JSON.parse(raw),
            address: m.subject,
            messageId: headers['nats-msg-id']!,
          });
        }
      };
      return {
        fields: { kind: 'nats', url: broker!.url, subject: `${prefix}.{event}` },
        addressOf: (event) => `${prefix}.${event}`,
        arrived: () => delivered,
        // A stream is read, not pushed: each check reads what the stream stored since the last one.
        waitFor: (n, timeoutMs = 30_000) =>
          waitFor(
            async () => (await refresh().catch(() => undefined), delivered),
            (d) => d.length >= n,
            { timeoutMs, what: `${n} messages in stream ${stream}` },
          ),
        refuse: async () => void (await jsm!.streams.update(stream, { subjects: [`${prefix}-refused.>`] })),
        accept: async () => void (await jsm!.streams.update(stream, { subjects: [`${prefix}.>`] })),
        close: async () => undefined,
      };
    },
    secrets: () => (broker ? [broker.password] : []),
    async stop() {
      await nc?.close().catch(() => undefined);
      await broker?.destroy();
    },
  };
}
