import { z } from 'zod';
import { agentResponse } from '../agents/agents.schema.js';
import { contactResponse } from '../contacts/contacts.schema.js';
import { inboxResponse } from '../inboxes/inboxes.schema.js';
import { messageResponse } from '../messages/messages.schema.js';
import { idString, jsonRecord, outText, timestamp, uuidString } from '../platform/output.js';
import { EVENT_PAYLOADS } from '../events/event-payloads.js';
import { API_VERSION, EVENT_NAMES, TEST_EVENT, type EventType } from '../events/event-types.js';

// The payload and the delivery envelope of every event, as zod: the source of the OpenAPI `webhooks` object and
// of GET /v1/event-types. Domain events carry their resource as the API returns it; operational events have
// their own strict schemas (events/event-payloads.ts). It lives beside the event-type catalog it serves, not in
// events/: it imports every resource's schema, and those resources import events/ to emit.

const DOMAIN_PAYLOADS: Record<Exclude<EventType, keyof typeof EVENT_PAYLOADS>, z.ZodType> = {
  'message.received': messageResponse,
  'message.sent': messageResponse,
  'message.drafted': messageResponse,
  'message.delivered': messageResponse,
  'message.bounced': messageResponse,
  'message.complained': messageResponse,
  'message.rejected': messageResponse,
  'inbox.created': inboxResponse,
  'inbox.updated': inboxResponse,
  'inbox.deleted': inboxResponse,
  'contact.created': contactResponse,
  'contact.updated': contactResponse,
  'agent.updated': agentResponse,
  'escalation.triggered': jsonRecord().describe('Planned: not produced yet, and its payload is not fixed'),
};

const testPayload = z.object({ webhookId: idString('wh'), message: outText() }).strict();

type Json = Record<string, Record<string, unknown>>;

/** The payload schema of an event name (subscribable ones and webhook.test). */
export function eventPayloadSchema(event: EventType | typeof TEST_EVENT): z.ZodType {
  if (event === TEST_EVENT) return testPayload;
  return (EVENT_PAYLOADS as Record<string, z.ZodType>)[event] ?? DOMAIN_PAYLOADS[event as keyof typeof DOMAIN_PAYLOADS];
}

/** What one delivery of `event` POSTs: the envelope with that event's payload. */
export function envelopeSchema(event: EventType | typeof TEST_EVENT) {
  return z.object({
    id: uuidString().describe('The delivery id: the same on every retry; receivers dedupe on it'),
    event: z.literal(event),
    timestamp: timestamp().describe('When the event happened'),
    apiVersion: z.literal(API_VERSION),
    inboxId: idString('inb').nullable(),
    messageId: idString('msg').nullable(),
    payload: eventPayloadSchema(event),
  });
}

/** Every event a delivery can carry: the subscribable ones, then the test event. */
export const DELIVERED_EVENTS: Array<EventType | typeof TEST_EVENT> = [...EVENT_NAMES, TEST_EVENT];

/**
 * The JSON Schema of an event's payload, self-contained: `payloadSchema` in GET /v1/event-types, and what a
 * subscription's filter is checked against (webhooks/filter-check.ts).
 */
export function payloadJsonSchema(event: EventType): Record<string, unknown> {
  const json = z.toJSONSchema(eventPayloadSchema(event), { io: 'output', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  // A resource's schema has an id, so zod makes the root a $ref into $defs; its properties belong at the top.
  const { $schema, $ref, $defs = {}, ...rest } = json as { $schema?: string; $ref?: string; $defs?: Json };
  const root = typeof $ref === 'string' && Object.keys(rest).length === 0 ? $ref.replace(/^#\/\$defs\//, '') : null;
  if (!root || !$defs[root]) return json;
  const { [root]: hoisted, ...others } = $defs;
  const stillReferenced = JSON.stringify([hoisted, others]).includes(`"#/$defs/${root}"`);
  const defs = stillReferenced ? $defs : others;
  return { $schema, ...hoisted, ...(Object.keys(defs).length ? { $defs: defs } : {}) };
}

/** The JSON Schema of an event's envelope, self-contained (its own $defs). */
export const envelopeJsonSchema = (event: EventType): Record<string, unknown> =>
  z.toJSONSchema(envelopeSchema(event), { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
