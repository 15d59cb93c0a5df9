import { outText } from '../../platform/output.js';
import { subjectProblem, templateOf } from '../broker-target.js';
import { createNatsTransport } from '../transports/nats.js';
import { brokerUrl } from './broker-url.js';
import { defineKind } from './kind.js';

/** nats: published to the JetStream `subject` on the nats:// or tls:// server at url (docs/adr/0088-broker-destinations.md). */
export const nats = defineKind({
  name: 'nats',
  created: true,
  pulled: false,
  url: brokerUrl(['nats:', 'tls:'], { path: false }),
  fields: [
    {
      name: 'subject',
      input: templateOf(subjectProblem).describe(
        'nats: the JetStream subject; `{event}` is replaced by the event name (e.g. `switchboard.{event}`)',
      ),
      output: outText().describe('nats: the subject template; null for other kinds'),
      label: "nats: JetStream subject (a template; {event} is the event's type)",
      placeholder: 'switchboard.{event}',
    },
  ],
  label: 'published to the JetStream subject',
  transport: (p) => createNatsTransport(p.config, p.urls, p.logger),
  description: 'published to the JetStream `subject` on the nats:// or tls:// server at url',
  urlPlaceholder: 'tls://publisher:PASSWORD@nats.example.com:4222',
  urlForm: 'nats:// or tls://',
  where: (w) => `subject ${String(w.subject ?? '')}`,
});
