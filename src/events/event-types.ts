/** The envelope's apiVersion (docs/decisions.md#webhook-envelope). */
export const API_VERSION = '2026-11-01';

// Every event name of the interface with its status. Subscriptions may name any of them.

export const EVENT_TYPES = {
  'message.received': { status: 'emitted', description: 'A new message was received by an agent' },
  'message.sent': { status: 'emitted', description: 'An agent sent a message' },
  'message.drafted': { status: 'emitted', description: 'A draft message was created' },
  'inbox.created': { status: 'emitted', description: 'An inbox was created' },
  // inbox.updated is planned, not yet produced (docs/decisions.md#inbox-updated):
  // it may be subscribed to, but nothing emits it yet.
  'inbox.updated': { status: 'planned', description: "An inbox's configuration changed" },
  'inbox.deleted': { status: 'emitted', description: 'An inbox was deleted' },
  'contact.created': { status: 'emitted', description: 'A contact was created' },
  'contact.updated': { status: 'emitted', description: 'A contact was updated' },
  'agent.updated': { status: 'emitted', description: "An agent's name, status or configuration changed" },
  'message.delivered': { status: 'planned', description: 'A sent message was delivered' },
  'message.bounced': { status: 'planned', description: 'A sent message bounced' },
  'message.complained': { status: 'planned', description: 'A recipient marked a message as spam' },
  'message.rejected': { status: 'planned', description: 'A message was rejected before delivery' },
  'escalation.triggered': { status: 'planned', description: 'An agent escalated a conversation to a person' },
  // Operational events: the platform telling an integrator about its own webhooks, keys and credits. Their
  // payloads are the zod schemas of src/events/event-payloads.ts; each is written in the transaction that makes
  // the change it reports, and goes through the same signed, retried pipeline.
  'webhook.disabled': {
    status: 'emitted',
    description: "A webhook subscription was disabled (sent to the account's other subscriptions)",
  },
  'webhook.delivery_exhausted': {
    status: 'emitted',
    description: "A webhook delivery failed every retry (sent to the account's other subscriptions)",
  },
  'api_key.expiring': {
    status: 'emitted',
    description: 'An API key expires within seven days (sent once per expiry date)',
  },
  'api_key.expired': { status: 'emitted', description: 'An API key passed its expiresAt and was marked expired' },
  'api_key.deactivated': { status: 'emitted', description: 'An API key was deactivated' },
  'api_key.spend_cap_reached': {
    status: 'emitted',
    description: "A key's spending crossed 80% or 100% of its spendCapCredits",
  },
  'billing.credits_low': {
    status: 'emitted',
    description: "The account's credit balance fell below its lowCreditsThreshold",
  },
  'billing.credits_exhausted': { status: 'emitted', description: "The account's credit balance reached zero" },
} as const;

export type EventType = keyof typeof EVENT_TYPES;
export const EVENT_NAMES = Object.keys(EVENT_TYPES) as EventType[];

/** Sent only to one subscription by POST /v1/webhooks/:webhookId/test; not subscribable. */
export const TEST_EVENT = 'webhook.test';
