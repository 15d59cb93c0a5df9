import { text } from '../../platform/input.js';
import { outText } from '../../platform/output.js';
import { EXCHANGE_PATTERN, routingKeyProblem, templateOf } from '../broker-target.js';
import { createRabbitmqTransport } from '../transports/rabbitmq.js';
import { brokerUrl } from './broker-url.js';
import { defineKind } from './kind.js';

/** rabbitmq: published to `exchange` with `routingKey` on the amqp(s):// broker at url (docs/adr/0088-broker-destinations.md). */
export const rabbitmq = defineKind({
  name: 'rabbitmq',
  created: true,
  pulled: false,
  url: brokerUrl(['amqp:', 'amqps:'], { path: true }),
  fields: [
    {
      name: 'exchange',
      input: text()
        .regex(EXCHANGE_PATTERN, 'up to 127 letters, digits, "_", ".", ":" or "-"')
        .describe('rabbitmq: the exchange to publish to; "" is the default exchange'),
      output: outText().describe('rabbitmq: the exchange ("" is the default); null for other kinds'),
      label: 'rabbitmq: exchange',
      placeholder: 'orders',
    },
    {
      name: 'routingKey',
      input: templateOf(routingKeyProblem).describe(
        'rabbitmq: the routing key; `{event}` is replaced by the event name (e.g. `switchboard.{event}`)',
      ),
      output: outText().describe('rabbitmq: the routing key template; null for other kinds'),
      label: "rabbitmq: routing key (a template; {event} is the event's type)",
      placeholder: 'switchboard.{event}',
    },
  ],
  label: 'published to the exchange on the broker',
  transport: (p) => createRabbitmqTransport(p.config, p.urls, p.logger),
  description: 'published to `exchange` with `routingKey` on the amqp(s):// broker at url',
  urlPlaceholder: 'amqps://publisher:PASSWORD@mq.example.com/vhost',
  urlForm: 'amqp:// or amqps://',
  where: (w) => `exchange "${String(w.exchange ?? '')}" · routing key ${String(w.routingKey ?? '')}`,
});
