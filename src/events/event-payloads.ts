import { z } from 'zod';
import type { NewEvent } from './events.repository.js';
import type { EventType } from './event-types.js';
import { timestamp } from '../platform/output.js';

// The payload of every operational event, in one place: what is written is parsed against these schemas first
// (strict objects, so a field that is not listed here, such as a secret or a hash, can never slip into a
// payload), and GET /v1/event-types publishes them as JSON Schema. Domain events carry their resource as the API
// returns it and have no entry here yet.

/** A key's identity and public metadata: never its secret, never its hash. */
const keyRef = {
  keyId: z.string().meta({ examples: ['key_4fT9pQ2mX7rL1sV8bN3c'] }),
  name: z.string().meta({ examples: ['billing integration'] }),
  keyType: z.enum(['account', 'agent']),
  keyPrefix: z.string().meta({ examples: ['ca_acct_'] }),
  agentId: z.string().nullable(),
  expiresAt: timestamp().nullable(),
};

export const EVENT_PAYLOADS = {
  'webhook.disabled': z
    .object({
      webhookId: z.string().meta({ examples: ['wh_2kR8vN5qT1xM7cL4pB9d'] }),
      url: z.string().meta({ examples: ['https://example.com/hooks'] }),
      reason: z.string().meta({ examples: ['20 consecutive deliveries failed every retry.'] }),
      consecutiveFailures: z
        .number()
        .int()
        .meta({ examples: [20] }),
      disabledAt: timestamp(),
    })
    .strict(),
  'webhook.delivery_exhausted': z
    .object({
      webhookId: z.string().meta({ examples: ['wh_2kR8vN5qT1xM7cL4pB9d'] }),
      url: z.string().meta({ examples: ['https://example.com/hooks'] }),
      deliveryId: z
        .string()
        .describe('The envelope id of the delivery that failed')
        .meta({ examples: ['019ad6b6-3b3e-7c4f-9d7e-3a1f0c2b5e8d'] }),
      eventId: z.string().meta({ examples: ['evt_7mQ2xL9pT4vB1nR8cK5d'] }),
      event: z.string().meta({ examples: ['contact.created'] }),
      attempts: z
        .number()
        .int()
        .meta({ examples: [8] }),
      lastError: z.string().nullable(),
      lastResponseStatus: z
        .number()
        .int()
        .meta({ examples: [503] })
        .nullable(),
      consecutiveFailures: z
        .number()
        .int()
        .describe("The subscription's count of consecutive exhausted deliveries, after this one")
        .meta({ examples: [3] }),
    })
    .strict(),
  'api_key.expiring': z.object({ ...keyRef, expiresAt: timestamp() }).strict(),
  'api_key.expired': z.object(keyRef).strict(),
  'api_key.deactivated': z.object({ ...keyRef, previousStatus: z.enum(['active', 'expired']) }).strict(),
  'api_key.spend_cap_reached': z
    .object({
      ...keyRef,
      percent: z.union([z.literal(80), z.literal(100)]),
      spendCapCredits: z
        .number()
        .int()
        .meta({ examples: [1000] }),
      spentCredits: z
        .number()
        .int()
        .meta({ examples: [800] }),
    })
    .strict(),
  'billing.credits_low': z
    .object({
      creditsBalance: z
        .number()
        .int()
        .meta({ examples: [42] }),
      lowCreditsThreshold: z
        .number()
        .int()
        .meta({ examples: [100] }),
    })
    .strict(),
  'billing.credits_exhausted': z
    .object({
      creditsBalance: z
        .number()
        .int()
        .meta({ examples: [0] }),
    })
    .strict(),
} as const satisfies Partial<Record<EventType, z.ZodType>>;

export type OperationalEventType = keyof typeof EVENT_PAYLOADS;
export type OperationalPayload<T extends OperationalEventType> = z.input<(typeof EVENT_PAYLOADS)[T]>;

/** An operational event ready to emit; its payload is checked against its schema here, once. */
export function operationalEvent<T extends OperationalEventType>(type: T, payload: OperationalPayload<T>): NewEvent {
  return { type, payload: EVENT_PAYLOADS[type].parse(payload) as Record<string, unknown> };
}
