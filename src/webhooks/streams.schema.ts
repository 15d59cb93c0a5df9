import { z } from 'zod';
import { EVENT_NAMES } from '../events/event-types.js';
import { eventName } from '../events/event-name.js';
import { text } from '../platform/input.js';
import { idString, jsonRecord, outText, uuidString } from '../platform/output.js';
import { eventList, signatureScheme } from './webhooks.schema.js';

/** GET /v1/webhook-streams?events=a,b (default: every event type). */
export const openStreamQuery = z
  .object({
    events: text().max(2000).optional().describe('Comma-separated event names; every event type when left out'),
    signatureScheme: signatureScheme
      .optional()
      .describe('How the deliveries of this stream are signed; hmac-sha256 when left out'),
  })
  .strict();

/** The event names of `?events=`: each one known, at least one (400 validation_error otherwise). */
export const streamEvents = text()
  .optional()
  .transform((v) => (v ? v.split(',').map((e) => e.trim()) : [...EVENT_NAMES]))
  .pipe(eventList);

/** The first event of a stream: the subscription it is and the key that verifies its deliveries. */
export const streamOpenedEvent = z
  .object({
    webhookId: idString('wh'),
    events: z.array(outText()),
    secret: outText()
      .nullable()
      .describe('whsec_…: the session secret; every delivery of this stream is signed with it (null for ed25519)'),
    signatureScheme,
    publicKey: outText()
      .nullable()
      .describe('ed25519: the whpk_ public key that verifies every delivery of this stream; null for hmac-sha256'),
  })
  .meta({ id: 'WebhookStreamOpened' });

export const streamDeliveryEvent = z
  .object({
    token: outText().describe('Names this attempt in the report'),
    deliveryId: uuidString(),
    event: outText(),
    attempt: z.number().int(),
    headers: z.record(outText(), outText()).describe('The headers to forward: signature, ids, user agent'),
    body: outText().describe('The raw body to forward, byte for byte (the signature covers it)'),
  })
  .meta({ id: 'WebhookStreamDelivery' });

export const streamReportAccepted = z.object({ accepted: z.literal(true) }).meta({ id: 'WebhookStreamReportAccepted' });

/** POST /v1/webhooks/test-events: one event of a type with a payload valid against its schema. */
export const testEventInput = z
  .object({
    event: eventName(),
    payload: jsonRecord(),
  })
  .strict();

export const testEventResponse = z
  .object({
    eventId: idString('evt'),
    event: outText(),
    deliveryIds: z.array(uuidString()).describe('One per subscription of the account that asks for the event'),
  })
  .meta({ id: 'TestEvent' });
