/**
 * The body of every Switchboard delivery (docs/webhooks.md, "What a delivery looks like"). `id` is the delivery's
 * UUID, the same on every retry and redelivery: dedupe on it.
 */
export interface WebhookEnvelope {
  id: string;
  /** The event type, such as `contact.created`. */
  event: string;
  /** When the event happened (ISO 8601), not when this attempt was sent. */
  timestamp: string;
  /** The version of the payload shapes, such as `2026-11-01`. */
  apiVersion: string;
  inboxId: string | null;
  messageId: string | null;
  /** The event's payload; its JSON Schema per event type is served by `GET /v1/event-types`. */
  payload: Record<string, unknown>;
}
