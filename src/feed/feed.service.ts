import { iso } from '../platform/clock.js';
import type { Deps } from '../app/deps.js';
import { listEvents, type EventRow } from '../events/events.repository.js';
import { EVENT_TYPES, type EventType } from '../events/event-types.js';
import { envelopeJsonSchema, payloadJsonSchema } from './event-schemas.js';
import { mapPage, type PageQuery } from '../platform/pagination.js';
import { retainedSince } from '../maintenance/retention.js';

export const toFeedItem = (row: EventRow) => ({
  id: row.id,
  event: row.type,
  inboxId: row.inbox_id,
  messageId: row.message_id,
  payload: row.payload,
  createdAt: iso(row.created_at),
});

/** The account's recent events from the outbox, newest first: what its webhooks were (or would be) sent. */
export async function listFeed(deps: Deps, accountId: string, page: PageQuery) {
  return mapPage(await listEvents(deps.db, accountId, page, retainedSince(deps.config)), toFeedItem);
}

/**
 * Every event name a subscription may name, with whether the service produces it yet, its ordering key, the JSON
 * Schema of its payload (`payloadSchema`) and that of the whole delivery envelope, payload included (`schema`).
 */
export function describeEventTypes() {
  return Object.entries(EVENT_TYPES).map(([name, t]) => ({
    name,
    status: t.status,
    description: t.description,
    orderingKey: t.orderingKey,
    payloadSchema: payloadJsonSchema(name as EventType),
    schema: envelopeJsonSchema(name as EventType),
  }));
}
