import type { Command } from 'commander';
import { session } from './api.js';
import { closestName } from './did-you-mean.js';
import { CliError, count, EXIT, table, type Output } from './output.js';
import { samplePayloadOfEnvelope } from './sample-payload.js';

// switchboard trigger <event-type>: a test event with a sample payload made from the type's JSON Schema
// (GET /v1/event-types), sent to the account's subscriptions that ask for it (POST /v1/webhooks/test-events).

export function registerTriggerCommand(program: Command, out: () => Output) {
  program
    .command('trigger')
    .description("Send a test event of a type, with a sample payload valid against the type's schema")
    .argument('[event-type]', 'e.g. contact.created (switchboard trigger --list shows them all)')
    .option('--payload <json>', 'the payload to send instead of the sample')
    .option('--list', 'list the event types that can be triggered, and send nothing')
    .action(async (eventType: string | undefined, opts: { payload?: string; list?: boolean }) => {
      const o = out();
      if (opts.list && (eventType !== undefined || opts.payload !== undefined))
        throw new CliError('--list takes no event type and no --payload', EXIT.usage);
      if (!opts.list && eventType === undefined)
        throw new CliError('give an event type (switchboard trigger --list shows them all)', EXIT.usage);
      const { api } = session();
      const catalog = await api.listEventTypes();
      if (opts.list) {
        const types = catalog.data.map(({ name, status, description }) => ({ name, status, description }));
        o.result(types, () => table(types, ['name', 'status', 'description']));
        return;
      }
      const type = catalog.data.find((t) => t.name === eventType);
      if (!type) {
        const names = catalog.data.map((t) => t.name);
        const near = closestName(eventType!, names);
        const hint = near ? `did you mean ${near}? ` : '';
        throw new CliError(
          `unknown event type "${eventType}"; ${hint}switchboard trigger --list shows them all`,
          EXIT.usage,
        );
      }
      let payload: Record<string, unknown>;
      try {
        payload = opts.payload
          ? (JSON.parse(opts.payload) as Record<string, unknown>)
          : (samplePayloadOfEnvelope(type.schema) as Record<string, unknown>);
      } catch {
        throw new CliError('--payload must be a JSON object', EXIT.usage);
      }
      const sent = await api.sendTestEvent({ body: { event: type.name as never, payload } });
      o.result(
        { ...sent, payload },
        () =>
          `Triggered ${sent.event} (${sent.eventId}): ${count(sent.deliveryIds.length, 'delivery', 'deliveries')} to matching subscriptions`,
      );
    });
}
