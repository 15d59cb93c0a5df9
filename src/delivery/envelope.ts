import { API_VERSION } from '../events/event-types.js';
import type { SendContext } from './sql/load.js';

/** What builds a delivery's envelope: the delivery's id and event type, and its event's row. */
export type EnvelopeSource = Pick<
  SendContext,
  'id' | 'event' | 'event_created_at' | 'inbox_id' | 'message_id' | 'payload'
>;

/**
 * The body of every attempt of one delivery, before JSON.stringify: built from rows that never change, so the
 * worker's request and the API's `GET …/deliveries/:deliveryId` show the same bytes.
 */
export function buildEnvelope(ctx: EnvelopeSource) {
  return {
    id: ctx.id,
    event: ctx.event,
    timestamp: new Date(ctx.event_created_at).toISOString(),
    apiVersion: API_VERSION,
    inboxId: ctx.inbox_id,
    messageId: ctx.message_id,
    payload: ctx.payload,
  };
}
