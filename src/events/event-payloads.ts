import { z } from 'zod';
import type { NewEvent } from './events.repository.js';
import type { EventType } from './event-types.js';

// The payload of every operational event, in one place: what is written is parsed against these schemas first
// (strict objects, so a field that is not listed here, such as a secret or a hash, can never slip into a
// payload), and GET /v1/event-types publishes them as JSON Schema. Domain events carry their resource as the API
// returns it and have no entry here yet.

const timestamp = z.string().describe('ISO 8601 UTC with milliseconds');

/** A key's identity and public metadata: never its secret, never its hash. */
const keyRef = {
  keyId: z.string(),
  name: z.string(),
  keyType: z.enum(['account', 'agent']),
  keyPrefix: z.string(),
  agentId: z.string().nullable(),
  expiresAt: timestamp.nullable(),
};

export const EVENT_PAYLOADS = {
  'webhook.disabled': z
    .object({
      webhookId: z.string(),
      url: z.string(),
      reason: z.string(),
      consecutiveFailures: z.number().int(),
      disabledAt: timestamp,
    })
    .strict(),
  'webhook.delivery_exhausted': z
    .object({
      webhookId: z.string(),
      url: z.string(),
      deliveryId: z.string().describe('The envelope id of the delivery that failed'),
      eventId: z.string(),
      event: z.string(),
      attempts: z.number().int(),
      lastError: z.string().nullable(),
      lastResponseStatus: z.number().int().nullable(),
      consecutiveFailures: z
        .number()
        .int()
        .describe("The subscription's count of consecutive exhausted deliveries, after this one"),
    })
    .strict(),
  'api_key.expiring': z.object({ ...keyRef, expiresAt: timestamp }).strict(),
  'api_key.expired': z.object(keyRef).strict(),
  'api_key.deactivated': z.object({ ...keyRef, previousStatus: z.enum(['active', 'expired']) }).strict(),
  'api_key.spend_cap_reached': z
    .object({
      ...keyRef,
      percent: z.union([z.literal(80), z.literal(100)]),
      spendCapCredits: z.number().int(),
      spentCredits: z.number().int(),
    })
    .strict(),
  'billing.credits_low': z.object({ creditsBalance: z.number().int(), lowCreditsThreshold: z.number().int() }).strict(),
  'billing.credits_exhausted': z.object({ creditsBalance: z.number().int() }).strict(),
} as const satisfies Partial<Record<EventType, z.ZodType>>;

export type OperationalEventType = keyof typeof EVENT_PAYLOADS;
export type OperationalPayload<T extends OperationalEventType> = z.input<(typeof EVENT_PAYLOADS)[T]>;

/** An operational event ready to emit; its payload is checked against its schema here, once. */
export function operationalEvent<T extends OperationalEventType>(type: T, payload: OperationalPayload<T>): NewEvent {
  return { type, payload: EVENT_PAYLOADS[type].parse(payload) as Record<string, unknown> };
}

/** The JSON Schema of an event's payload, when it has one. */
export function payloadJsonSchema(type: string): Record<string, unknown> | null {
  const schema = (EVENT_PAYLOADS as Record<string, z.ZodType>)[type];
  return schema ? (z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>) : null;
}
