/** The envelope's apiVersion (docs/adr/0019-webhook-envelope.md). */
export const API_VERSION = '2026-11-01';

// Every event name of the interface with its status. Subscriptions may name any of them. `orderingKey` is the
// path in the envelope to the value whose events an ordered subscription receives one at a time, in commit order
// (a contact's, a conversation's, an inbox's); null: the type has no key, and an ordered subscription cannot name
// it (docs/webhook-retries.md#ordered-delivery).

export const EVENT_TYPES = {
  'message.received': {
    orderingKey: 'payload.conversationId',
    status: 'emitted',
    description: 'A new message was received by an agent',
  },
  'message.sent': { orderingKey: 'payload.conversationId', status: 'emitted', description: 'An agent sent a message' },
  'message.drafted': {
    orderingKey: 'payload.conversationId',
    status: 'emitted',
    description: 'A draft message was created',
  },
  'inbox.created': { orderingKey: 'payload.id', status: 'emitted', description: 'An inbox was created' },
  // inbox.updated is planned, not yet produced (docs/adr/0024-inbox-updated.md):
  // it may be subscribed to, but nothing emits it yet.
  'inbox.updated': { orderingKey: 'payload.id', status: 'planned', description: "An inbox's configuration changed" },
  'inbox.deleted': { orderingKey: 'payload.id', status: 'emitted', description: 'An inbox was deleted' },
  'contact.created': { orderingKey: 'payload.id', status: 'emitted', description: 'A contact was created' },
  'contact.updated': { orderingKey: 'payload.id', status: 'emitted', description: 'A contact was updated' },
  'agent.updated': {
    orderingKey: 'payload.id',
    status: 'emitted',
    description: "An agent's name, status or configuration changed",
  },
  'message.delivered': {
    orderingKey: 'payload.conversationId',
    status: 'planned',
    description: 'A sent message was delivered',
  },
  'message.bounced': {
    orderingKey: 'payload.conversationId',
    status: 'planned',
    description: 'A sent message bounced',
  },
  'message.complained': {
    orderingKey: 'payload.conversationId',
    status: 'planned',
    description: 'A recipient marked a message as spam',
  },
  'message.rejected': {
    orderingKey: 'payload.conversationId',
    status: 'planned',
    description: 'A message was rejected before delivery',
  },
  'escalation.triggered': {
    orderingKey: null,
    status: 'planned',
    description: 'An agent escalated a conversation to a person',
  },
  // Operational events: the platform telling an integrator about its own webhooks, keys and credits. Their
  // payloads are the zod schemas of src/events/event-payloads.ts; each is written in the transaction that makes
  // the change it reports, and goes through the same signed, retried pipeline.
  'webhook.disabled': {
    orderingKey: 'payload.webhookId',
    status: 'emitted',
    description: "A webhook subscription was disabled (sent to the account's other subscriptions)",
  },
  'webhook.delivery_exhausted': {
    orderingKey: 'payload.webhookId',
    status: 'emitted',
    description: "A webhook delivery failed every retry (sent to the account's other subscriptions)",
  },
  'api_key.expiring': {
    orderingKey: 'payload.keyId',
    status: 'emitted',
    description: 'An API key expires within seven days (sent once per expiry date)',
  },
  'api_key.expired': {
    orderingKey: 'payload.keyId',
    status: 'emitted',
    description: 'An API key passed its expiresAt and was marked expired',
  },
  'api_key.deactivated': { orderingKey: 'payload.keyId', status: 'emitted', description: 'An API key was deactivated' },
  'api_key.spend_cap_reached': {
    orderingKey: 'payload.keyId',
    status: 'emitted',
    description: "A key's spending crossed 80% or 100% of its spendCapCredits",
  },
  'billing.credits_low': {
    orderingKey: null,
    status: 'emitted',
    description: "The account's credit balance fell below its lowCreditsThreshold",
  },
  'billing.credits_exhausted': {
    orderingKey: null,
    status: 'emitted',
    description: "The account's credit balance reached zero",
  },
} as const;

export type EventType = keyof typeof EVENT_TYPES;
export const EVENT_NAMES = Object.keys(EVENT_TYPES) as EventType[];

/** Sent only to one subscription by POST /v1/webhooks/:webhookId/test; not subscribable. */
export const TEST_EVENT = 'webhook.test';

/** The ordering key path of an event type, null when it has none (and for names outside the catalog). */
export const orderingKeyPath = (type: string): string | null =>
  (EVENT_TYPES as Record<string, { orderingKey: string | null }>)[type]?.orderingKey ?? null;

/** The value of an event's ordering key: a string or number at its path in the payload, else null. */
export function orderingKeyOf(type: string, payload: Record<string, unknown>): string | null {
  const path = orderingKeyPath(type);
  if (!path) return null;
  let at: unknown = { payload };
  for (const part of path.split('.')) at = at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : null;
  return typeof at === 'string' || typeof at === 'number' ? String(at) : null;
}
