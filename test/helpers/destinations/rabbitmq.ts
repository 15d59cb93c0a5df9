import { randomBytes } from 'node:crypto';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { startRabbitmq, type Broker } from '../brokers.js';
import { waitFor } from '../wait.js';
import type { Arrived, Destination, DestinationKindDriver } from './driver.js';

/**
 * rabbitmq: a broker of the test's own; each destination is a topic exchange with a queue bound to
 * `switchboard.#`, consumed here. Refusing unbinds the queue, so publishes come back unroutable.
 */
export function rabbitmqDriver(): DestinationKindDriver & { broker(): Broker } {
  let broker: Broker | undefined;
  let consumer: ChannelModel | undefined;
  let consumerClosed = true;
  // The driver's own connection, opened again after the broker was killed or restarted.
  const openConsumer = async () => {
    if (!consumerClosed) return;
    consumer = await connect(broker!.url);
    consumerClosed = false;
    consumer.on('error', () => undefined);
    consumer.on('close', () => (consumerClosed = true));
  };
  return {
    kind: 'rabbitmq',
    broker: () => broker!,
    async start() {
      broker = await startRabbitmq();
      await openConsumer();
    },
    async destination(): Promise<Destination> {
      const exchange = `sb-test-${randomBytes(4).toString('hex')}`;
      await openConsumer();
      const ch: Channel = await consumer!.createChannel();
      await ch.assertExchange(exchange, 'topic', { durable: true });
      const { queue } = await ch.assertQueue(`${exchange}-q`, { durable: true });
      const bind = () => ch.bindQueue(queue, exchange, 'switchboard.#');
      await bind();
      const delivered: Arrived[] = [];
      await ch.consume(
        queue,
        (m) => {
          if (!m) return;
          const raw = m.content.toString('utf8');
          const headers = Object.fromEntries(
            Object.entries(m.properties.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
          );
          headers['content-type'] = m.properties.contentType;
          headers['delivery-mode'] = String(m.properties.deliveryMode);
          delivered.push({
            headers,
            raw,
            body: JSON.parse(raw),
            address: m.fields.routingKey,
            messageId: m.properties.messageId,
          });
        },
        { noAck: true },
      );
      return {
        fields: { kind: 'rabbitmq', url: broker!.url, exchange, routingKey: 'switchboard.{event}' },
        addressOf: (event) => `switchboard.${event}`,
        arrived: () => delivered,
        waitFor: (n, timeoutMs = 30_000) =>
          waitFor(
            () => delivered,
            (d) => d.length >= n,
            { timeoutMs, what: `${n} messages in the queue of ${exchange}` },
          ),
        refuse: async () => void (await ch.unbindQueue(queue, exchange, 'switchboard.#')),
        accept: async () => void (await bind()),
        close: () => ch.close().catch(() => undefined),
      };
    },
    secrets: () => (broker ? [broker.password] : []),
    async stop() {
      await consumer?.close().catch(() => undefined);
      await broker?.destroy();
    },
  };
}
