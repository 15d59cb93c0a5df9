import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/logger.js';
import { expandTemplate, parseBrokerUrl } from '../broker-target.js';
import type { Transport } from '../transport.js';
import { natsSettings } from '../kinds/settings.js';
import { createBrokerPool, within, type Pooled, type UrlRing } from './broker-pool.js';
import { brokerFailure, BrokerRefusal, guardedAddress, startClock } from './broker-errors.js';

// A nats destination (docs/webhooks.md#destination-kinds): the signed envelope published to the subscription's
// JetStream subject, with the signature headers as NATS headers and the delivery id as Nats-Msg-Id, so JetStream
// drops a retry of a message it already stored (within the stream's duplicate window). The publish ack is the
// success; a subject no stream captures (no responders) is a failed attempt, 'unroutable', and a connection lost
// before the ack is 'connection_lost'. One connection per
// broker URL per process, never reconnecting by itself: the pool opens a new one, through the address guard again,
// at the next attempt after a connection is lost.

interface Nats extends Pooled {
  js: JetStreamClient;
}

async function openNats(url: string, allowPrivate: boolean, timeoutMs: number, lost: () => void): Promise<Nats> {
  const a = parseBrokerUrl(url);
  const address = await guardedAddress(a.hostname, allowPrivate);
  // A TLS connection dials the name its certificate carries (checked by the guard just now); plain ones the address.
  const host = a.tls ? a.hostname : address;
  const nc: NatsConnection = await connect({
    servers: `${host.includes(':') ? `[${host}]` : host}:${a.port}`,
    ...(a.password ? { user: a.username, pass: a.password } : a.username ? { token: a.username } : {}),
    ...(a.tls ? { tls: {} } : {}),
    timeout: timeoutMs,
    reconnect: false,
    // The server's gossip of other cluster addresses is never dialled: only what passed the guard.
    ignoreClusterUpdates: true,
    name: 'switchboard',
  });
  void nc.closed().then(lost, lost);
  return {
    js: jetstream(nc, { timeout: timeoutMs }),
    async close() {
      lost();
      await nc.close().catch(() => undefined);
    },
  };
}

export function createNatsTransport(config: Config, urls: UrlRing, logger: Logger): Transport {
  const { timeoutMs, allowPrivateTargets } = config.webhooks;
  const pool = createBrokerPool<Nats>();
  return {
    async send(request) {
      const elapsed = startClock();
      const url = urls.open(request.target.urlSealed!);
      const subject = expandTemplate(natsSettings.parse(request.target.settings).subject, request.event);
      try {
        const ack = await within(
          timeoutMs,
          (async () => {
            const nats = await pool.get(url, (lost) => openNats(url, allowPrivateTargets, timeoutMs, lost));
            const h = natsHeaders();
            for (const [k, v] of Object.entries(request.headers)) h.set(k, v);
            return nats.js
              .publish(subject, request.body, { msgID: request.deliveryId, headers: h, timeout: timeoutMs })
              .catch((err: unknown) => {
                if (noStream(err)) throw new BrokerRefusal('unroutable', `No stream captures subject ${subject}`);
                throw closedConnection(err) ? lostBeforeAck() : err;
              });
          })(),
          'acknowledge the message',
        );
        return { ok: true, body: JSON.stringify(ack), durationMs: elapsed() };
      } catch (err) {
        // A user name without a password is a token: the credential itself.
        const { username, password } = parseBrokerUrl(url);
        const answer = brokerFailure(err, elapsed(), [url, password || username]);
        if (!answer.ok) logger.debug({ webhookId: request.webhookId, error: answer.error }, 'nats publish failed');
        return answer;
      }
    },
    close: () => pool.close(),
  };
}

/** The connection closed (or was closing) while the publish waited for its ack: the server may have stored it. */
function closedConnection(err: unknown): boolean {
  for (let e = err as { name?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (['ClosedConnectionError', 'DrainingConnectionError', 'ConnectionError'].includes(e.name ?? '')) return true;
  return false;
}

const lostBeforeAck = () =>
  new BrokerRefusal(
    'connection_lost',
    'The connection to the server was lost before JetStream acknowledged the message; it may have stored it',
  );

/** No responders on the subject: JetStream reports it as "not enabled", but it means no stream captures it. */
function noStream(err: unknown): boolean {
  const e = err as { name?: string; cause?: { isNoResponders?: () => boolean } };
  return e?.name === 'JetStreamNotEnabled' || e?.cause?.isNoResponders?.() === true;
}
