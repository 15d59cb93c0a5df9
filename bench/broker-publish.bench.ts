import { randomUUID } from 'node:crypto';
import { connect as amqpConnect } from 'amqplib';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect, headers as natsHeaders } from '@nats-io/transport-node';
import { loadConfig } from '../src/platform/config.js';
import { createSealers } from '../src/platform/crypto.js';
import { createLogger } from '../src/platform/logger.js';
import { USER_AGENT } from '../src/delivery/sign.js';
import type { DeliveryRequest, Transport } from '../src/delivery/transport.js';
import { createUrlRing } from '../src/delivery/transports/broker-pool.js';
import { createNatsTransport } from '../src/delivery/transports/nats.js';
import { createRabbitmqTransport } from '../src/delivery/transports/rabbitmq.js';
import { startNats, startRabbitmq } from '../test/helpers/brokers.js';
import type { Benchmark } from './run.js';
import { percentile } from './webhook-helpers.js';

// One attempt's publish to a broker, alone: the service's transports (src/delivery/transports/rabbitmq.ts and
// nats.ts: the sealed URL opened, the pooled connection, the exchange check, the bounded wait, the answer) against
// the bare client doing the same publish (amqplib on a confirm channel, persistent and mandatory, waiting for the
// confirm; a JetStream publish with Nats-Msg-Id, waiting for the ack), with a delivery's headers, to brokers this
// run starts. First each side's most publishes per second, 100 in flight; then both paced at one rate, 80 % of
// the slower side's, for node CPU per publish of this process (the broker's own CPU is not counted). Alternating
// rounds; the first warms up.

const N = Number(process.env.BENCH_BROKER_N ?? 5_000);
const ROUNDS = 5;
const CONCURRENCY = 100;

type Side = () => Promise<void>;

async function closedLoop(side: Side): Promise<number> {
  let sent = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent++ < N) await side();
    }),
  );
  return N / ((performance.now() - started) / 1000);
}

/** N publishes issued at `rate` per second (in 10 ms ticks), answered in any order: node CPU µs per publish. */
async function paced(side: Side, rate: number): Promise<number> {
  const before = process.cpuUsage();
  const perTick = rate / 100;
  const pending: Array<Promise<void>> = [];
  let issued = 0;
  const started = performance.now();
  while (issued < N) {
    const due = Math.min(N, Math.floor(((performance.now() - started) / 10 + 1) * perTick));
    for (; issued < due; issued++) pending.push(side());
    await new Promise((r) => setTimeout(r, 10));
  }
  await Promise.all(pending);
  const used = process.cpuUsage(before);
  return Math.round((used.user + used.system) / N);
}

const median = (xs: number[]) =>
  percentile(
    xs.slice(1).sort((a, b) => a - b),
    50,
  );

async function compare(sides: Record<'transport' | 'bare', Side>) {
  const perSecond: Record<string, number[]> = { transport: [], bare: [] };
  const cpu: Record<string, number[]> = { transport: [], bare: [] };
  const order = (round: number) =>
    (round % 2 ? ['bare', 'transport'] : ['transport', 'bare']) as Array<keyof typeof sides>;
  for (let round = 0; round < ROUNDS; round++)
    for (const side of order(round)) perSecond[side]!.push(Math.round(await closedLoop(sides[side])));
  const rate = Math.round(0.8 * Math.min(median(perSecond.transport!), median(perSecond.bare!)));
  for (let round = 0; round < ROUNDS; round++)
    for (const side of order(round)) cpu[side]!.push(await paced(sides[side], rate));
  return {
    publishes_per_s: perSecond,
    paced_rate_per_s: rate,
    node_cpu_us_per_publish: cpu,
    transport_over_bare_cpu: +(median(cpu.transport!) / median(cpu.bare!)).toFixed(2),
  };
}

export const brokerPublishBenchmark: Benchmark = {
  id: 'broker-publish',
  name: `broker-publish: ${N} publishes to RabbitMQ and NATS, our transports vs bare amqplib and JetStream`,
  async run() {
    const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    const sealer = createSealers(config.appSecret).webhook;
    const urls = createUrlRing(sealer);
    const logger = createLogger('silent');
    const [rabbit, nats] = await Promise.all([startRabbitmq(), startNats()]);
    const transports: Transport[] = [];
    const closers: Array<() => Promise<unknown>> = [];
    try {
      const body = JSON.stringify({ id: randomUUID(), event: 'message.received', payload: {} });
      const request = (target: DeliveryRequest['target']): DeliveryRequest => {
        const id = randomUUID();
        return {
          accountId: 'acc_bench',
          webhookId: 'wh_bench',
          deliveryId: id,
          event: 'message.received',
          attempt: 1,
          url: '',
          target,
          body,
          headers: {
            'content-type': 'application/json',
            'user-agent': USER_AGENT,
            'x-switchboard-event': 'message.received',
            'x-switchboard-delivery': id,
            'x-switchboard-signature': `t=1700000000,v1=${'a'.repeat(64)}`,
            'webhook-id': id,
            'webhook-timestamp': '1700000000',
            'webhook-signature': `v1,${'b'.repeat(44)}`,
          },
        };
      };

      // RabbitMQ: a durable queue bound to the exchange, so every publish is routed and stored.
      const admin = await amqpConnect(rabbit.url);
      closers.push(() => admin.close());
      const setup = await admin.createChannel();
      await setup.assertExchange('bench', 'topic', { durable: true });
      await setup.assertQueue('bench-q', { durable: true, arguments: { 'x-max-length': 10_000 } });
      await setup.bindQueue('bench-q', 'bench', 'switchboard.#');
      const confirm = await admin.createConfirmChannel();
      const amqp = createRabbitmqTransport(config, urls, logger);
      transports.push(amqp);
      const amqpTarget = {
        urlSealed: sealer.seal(rabbit.url),
        settings: { exchange: 'bench', routingKey: 'switchboard.{event}' },
      };
      const rabbitFigures = await compare({
        transport: async () => {
          const res = await amqp.send(request(amqpTarget));
          if (!('ok' in res) || !res.ok) throw new Error(`publish failed: ${JSON.stringify(res)}`);
        },
        bare: () =>
          new Promise<void>((resolve, reject) => {
            const r = request({ urlSealed: null, settings: {} });
            const { 'content-type': contentType, ...headers } = r.headers;
            confirm.publish(
              'bench',
              'switchboard.message.received',
              Buffer.from(r.body),
              { persistent: true, mandatory: true, contentType, messageId: r.deliveryId, headers },
              (err: unknown) => (err ? reject(err) : resolve()),
            );
          }),
      });

      // NATS: a stream capturing the subject, with a short duplicate window (ids are all new anyway).
      const nc = await natsConnect({ servers: `127.0.0.1:${nats.port}`, user: nats.user, pass: nats.password });
      closers.push(() => nc.close());
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: 'BENCH', subjects: ['bench.>'], max_msgs: 10_000 });
      const js = jetstream(nc);
      const natsTransport = createNatsTransport(config, urls, logger);
      transports.push(natsTransport);
      const natsTarget = {
        urlSealed: sealer.seal(nats.url),
        settings: { subject: 'bench.{event}' },
      };
      const natsFigures = await compare({
        transport: async () => {
          const res = await natsTransport.send(request(natsTarget));
          if (!('ok' in res) || !res.ok) throw new Error(`publish failed: ${JSON.stringify(res)}`);
        },
        bare: async () => {
          const r = request({ urlSealed: null, settings: {} });
          const h = natsHeaders();
          for (const [k, v] of Object.entries(r.headers)) h.set(k, v);
          await js.publish('bench.message.received', r.body, { msgID: r.deliveryId, headers: h });
        },
      });
      return { rabbitmq: rabbitFigures, nats: natsFigures };
    } finally {
      await Promise.all(transports.map((t) => t.close()));
      for (const close of closers) await close().catch(() => undefined);
      await Promise.all([rabbit.destroy(), nats.destroy()]);
    }
  },
};
