import { z } from 'zod';

// The MCP Events extension's messages as this client reads them. Objects are loose: a server may add fields
// (`_meta`, fields of a later revision) and a client must not fail on them. An absent cursor means null.

const cursor = z
  .string()
  .nullish()
  .transform((c) => c ?? null);

export const eventOccurrence = z.looseObject({
  eventId: z.string(),
  name: z.string(),
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
  cursor: cursor.optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type EventOccurrence = z.infer<typeof eventOccurrence>;

export const deliveryMode = z.enum(['poll', 'push', 'webhook']);
export type DeliveryMode = z.infer<typeof deliveryMode>;

export const eventDescriptor = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  // A mode of a later revision is kept as a string rather than failing the whole list.
  delivery: z.array(z.string()),
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  payloadSchema: z.record(z.string(), z.unknown()).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type EventDescriptor = z.infer<typeof eventDescriptor>;

export const listEventsResult = z.looseObject({
  events: z.array(eventDescriptor),
  nextCursor: z.string().optional(),
});

export const pollResult = z.looseObject({
  events: z.array(eventOccurrence),
  cursor,
  truncated: z.boolean().default(false),
  hasMore: z.boolean().default(false),
  nextPollMs: z.number().int().min(0).optional(),
});
export type PollResult = z.infer<typeof pollResult>;

export const streamResult = z.looseObject({});

export const deliveryStatus = z.looseObject({
  active: z.boolean(),
  lastDeliveryAt: z.string().nullish(),
  lastError: z.string().nullish(),
  failedSince: z.string().nullish(),
  throttled: z.boolean().optional(),
  retryAfterMs: z.number().optional(),
});

export const subscribeResult = z.looseObject({
  id: z.string(),
  refreshBefore: z.string().nullable(),
  cursor,
  truncated: z.boolean().default(false),
  deliveryStatus: deliveryStatus.optional(),
});
export type SubscribeResult = z.infer<typeof subscribeResult>;

export const rpcError = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type RpcError = z.infer<typeof rpcError>;

const meta = z.record(z.string(), z.unknown()).optional();

// The push stream's notifications (events/stream); each names its method so the SDK routes it.
export const activeNotification = z.object({
  method: z.literal('notifications/events/active'),
  params: z.looseObject({ cursor, truncated: z.boolean().default(false), _meta: meta }),
});
export const eventNotification = z.object({
  method: z.literal('notifications/events/event'),
  params: eventOccurrence,
});
export const heartbeatNotification = z.object({
  method: z.literal('notifications/events/heartbeat'),
  params: z.looseObject({ cursor, _meta: meta }),
});
export const errorNotification = z.object({
  method: z.literal('notifications/events/error'),
  params: z.looseObject({ error: rpcError, _meta: meta }),
});
export const terminatedNotification = z.object({
  method: z.literal('notifications/events/terminated'),
  params: z.looseObject({ error: rpcError, _meta: meta }),
});

// A webhook body with a top-level `type` is a control envelope; one without is an EventOccurrence.
export const controlBody = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('verification'), challenge: z.string().min(1) }),
  z.looseObject({ type: z.literal('gap'), cursor }),
  z.looseObject({ type: z.literal('terminated'), error: rpcError }),
]);
export type ControlBody = z.infer<typeof controlBody>;
