import { connect, type ChannelModel, type ConfirmChannel, type Message } from 'amqplib';
import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/logger.js';
import { expandTemplate, parseBrokerUrl } from '../broker-target.js';
import type { Transport } from '../transport.js';
import { rabbitmqSettings } from '../kinds/settings.js';
import { createBrokerPool, within, type Pooled, type UrlRing } from './broker-pool.js';
import { brokerFailure, BrokerRefusal, guardedAddress, startClock } from './broker-errors.js';

// A rabbitmq destination (docs/webhooks.md#destination-kinds): the signed envelope published persistent and
// mandatory to the subscription's exchange, on a confirm channel. The broker's ack is the success; a nack, or the
// message returned as unroutable (the broker returns it before it acks it), is a failed attempt with the broker's
// reply text; a connection or channel lost before the confirm came is `connection_lost`, never a nack. One connection and confirm channel per broker URL per process: a channel publishes in the order it
// is given messages, so deliveries sent one at a time (an ordering key's) reach the exchange in that order.

const HEARTBEAT_SECONDS = 10;

interface Rabbit extends Pooled {
  channel: ConfirmChannel;
  /** Exchanges this connection has seen exist: an unknown one is probed on a channel of its own, once. */
  known: Set<string>;
  connection: ChannelModel;
  /** What the broker returned, by message id, until the message's confirm arrives. */
  returned: Map<string, string>;
  closed: boolean;
}

async function openRabbit(url: string, allowPrivate: boolean, timeoutMs: number, lost: () => void): Promise<Rabbit> {
  const a = parseBrokerUrl(url);
  const address = await guardedAddress(a.hostname, allowPrivate);
  const connection = await connect(
    {
      protocol: a.tls ? 'amqps' : 'amqp',
      hostname: address,
      port: a.port,
      username: a.username || undefined,
      password: a.password || undefined,
      vhost: a.vhost,
      heartbeat: HEARTBEAT_SECONDS,
    },
    { timeout: timeoutMs, noDelay: true, ...(a.tls ? { servername: a.hostname } : {}) },
  );
  const rabbit: Rabbit = {
    connection,
    channel: undefined as unknown as ConfirmChannel,
    known: new Set(['']),
    returned: new Map(),
    closed: false,
    async close() {
      rabbit.closed = true;
      lost();
      await connection.close().catch(() => undefined);
    },
  };
  const end = () => {
    if (!rabbit.closed) void rabbit.close();
  };
  connection.on('error', () => undefined);
  connection.on('close', end);
  try {
    rabbit.channel = await connection.createConfirmChannel();
  } catch (err) {
    end();
    throw err;
  }
  rabbit.channel.on('error', () => undefined);
  // A closed channel (an exchange deleted under it) ends the connection too: the next send opens both again.
  rabbit.channel.on('close', end);
  rabbit.channel.on('return', (m: Message) => {
    const id = m.properties.messageId as string | undefined;
    // A basic.return carries the broker's reply code and text among its fields.
    const fields = m.fields as typeof m.fields & { replyCode?: number; replyText?: string };
    if (id) rabbit.returned.set(id, `${fields.replyCode ?? ''} ${fields.replyText ?? 'unroutable'}`.trim());
  });
  return rabbit;
}

/**
 * Refuses an exchange the broker does not have, on a throwaway channel (a publish to it would close the shared one).
 */
async function requireExchange(rabbit: Rabbit, exchange: string): Promise<void> {
  if (rabbit.known.has(exchange)) return;
  const probe = await rabbit.connection.createChannel();
  probe.on('error', () => undefined);
  try {
    await probe.checkExchange(exchange);
  } catch (err) {
    throw new BrokerRefusal('unroutable', `exchange "${exchange}" not found: ${(err as Error).message}`);
  }
  await probe.close().catch(() => undefined);
  rabbit.known.add(exchange);
}

/**
 * Whether a confirm callback's error is the broker's basic.nack. amqplib calls it with "message nacked" for a nack
 * alone; a channel or connection that closes calls every outstanding one with "channel closed", before any close
 * listener of ours runs, so the error itself is what tells the two apart.
 */
const brokerNacked = (err: unknown): boolean => (err as Error | null)?.message === 'message nacked';

const lostBeforeConfirm = () =>
  new BrokerRefusal(
    'connection_lost',
    'The connection to the broker was lost before it confirmed the message; it may have taken it',
  );

function publish(
  rabbit: Rabbit,
  exchange: string,
  routingKey: string,
  id: string,
  headers: Record<string, string>,
  body: string,
) {
  const { 'content-type': contentType, ...rest } = headers;
  return new Promise<void>((resolve, reject) => {
    if (rabbit.closed) return reject(lostBeforeConfirm());
    rabbit.channel.publish(
      exchange,
      routingKey,
      Buffer.from(body, 'utf8'),
      {
        persistent: true,
        mandatory: true,
        contentType: contentType ?? 'application/json',
        messageId: id,
        headers: rest,
      },
      (err: unknown) => {
        const returned = rabbit.returned.get(id);
        rabbit.returned.delete(id);
        if (err)
          return reject(
            brokerNacked(err) ? new BrokerRefusal('nack', 'The broker nacked the message') : lostBeforeConfirm(),
          );
        if (returned !== undefined)
          return reject(new BrokerRefusal('unroutable', `The broker returned the message: ${returned}`));
        resolve();
      },
    );
  });
}

export function createRabbitmqTransport(config: Config, urls: UrlRing, logger: Logger): Transport {
  const { timeoutMs, allowPrivateTargets } = config.webhooks;
  const pool = createBrokerPool<Rabbit>();
  return {
    async send(request) {
      const elapsed = startClock();
      const target = rabbitmqSettings.parse(request.target.settings);
      const url = urls.open(request.target.urlSealed!);
      try {
        await within(
          timeoutMs,
          (async () => {
            const rabbit = await pool.get(url, (lost) => openRabbit(url, allowPrivateTargets, timeoutMs, lost));
            const exchange = target.exchange;
            await requireExchange(rabbit, exchange);
            const key = expandTemplate(target.routingKey, request.event);
            await publish(rabbit, exchange, key, request.deliveryId, request.headers, request.body);
          })(),
          'confirm the message',
        );
        return { ok: true, body: '', durationMs: elapsed() };
      } catch (err) {
        const answer = brokerFailure(err, elapsed(), [url, parseBrokerUrl(url).password]);
        if (!answer.ok) logger.debug({ webhookId: request.webhookId, error: answer.error }, 'rabbitmq publish failed');
        return answer;
      }
    },
    close: () => pool.close(),
  };
}
