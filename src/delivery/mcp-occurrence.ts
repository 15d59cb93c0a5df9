import { randomBase62 } from '../platform/ids.js';
import { signatureHeaders, USER_AGENT, type SigningKeys } from './sign.js';

// The body and headers of a delivery to an MCP Events webhook subscription (docs/mcp-events-webhook.md): the
// sketch's EventOccurrence instead of the envelope, signed Standard Webhooks v1 with the client's own secret, the
// event's id as webhook-id, and X-MCP-Subscription-Id. The row chooses it (its mcp_subscription_id); everything
// else about the delivery (retries, attempts, disable) is the engine's as for any subscription.

/** A position in the account's event log: opaque to clients, the event's time and id. */
export const eventCursor = (at: Date, eventId: string): string =>
  `cur_${Buffer.from(`${new Date(at).toISOString()}|${eventId}`, 'utf8').toString('base64url')}`;

/** What the occurrence is built from: rows that never change, so every attempt sends the same bytes. */
export interface OccurrenceSource {
  event_id: string;
  event: string;
  event_created_at: Date;
  payload: Record<string, unknown>;
}

export function buildOccurrence(ctx: OccurrenceSource) {
  return {
    eventId: ctx.event_id,
    name: ctx.event,
    timestamp: new Date(ctx.event_created_at).toISOString(),
    data: ctx.payload,
    cursor: eventCursor(ctx.event_created_at, ctx.event_id),
  };
}

/** A control body's webhook-id: msg_<type>_<random>, so receivers can dedupe its retries. */
export const controlMessageId = (type: string): string => `msg_${type}_${randomBase62(20)}`;

/**
 * Every header of one MCP delivery or control body: Standard Webhooks only (no X-Switchboard-* signature, which
 * signs with the whole whsec_ string, a scheme the MCP receiver does not know), the previous secret beside the
 * current one while its overlap lasts.
 */
export function mcpHeaders(
  messageId: string,
  subscriptionId: string,
  body: string,
  at: Date,
  keys: SigningKeys,
): Record<string, string> {
  const signed = signatureHeaders(messageId, body, Math.floor(at.getTime() / 1000), { ...keys, legacy: null });
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': signed['webhook-id']!,
    'webhook-timestamp': signed['webhook-timestamp']!,
    'webhook-signature': signed['webhook-signature']!,
    'x-mcp-subscription-id': subscriptionId,
  };
}

/** The categories a callback failure is reported in (the sketch's lastError): never the endpoint's own words. */
export type CallbackFailure =
  'connection_refused' | 'timeout' | 'tls_error' | 'http_4xx' | 'http_5xx' | 'challenge_failed';

/** The category of a failed send (src/platform/http-client.ts's error codes, and the status when there was one). */
export function callbackFailureOf(res: { error: string | null; status?: number | null }): CallbackFailure {
  if (res.error === 'timeout') return 'timeout';
  if (res.error === 'tls') return 'tls_error';
  if (typeof res.status === 'number' && res.status >= 500) return 'http_5xx';
  if (typeof res.status === 'number') return 'http_4xx';
  return 'connection_refused';
}
