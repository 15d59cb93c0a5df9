import { preparedRaw, type Conn, type Trx } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { NewEvent } from '../events/events.repository.js';

// Fan-out happens in the emitting transaction: the event row and one delivery row per active subscription of
// the account that wants it are written by ONE statement, so an event and its deliveries commit (or vanish)
// together. The delivery ids are the envelope ids; what is left is handing them to the queue after commit.
// `onlyTo` (a `webhook.test` event) names the one active subscription that gets a delivery, whatever it subscribes to.

export interface FannedOutEvent {
  eventId: string;
  deliveryIds: string[];
}

export async function insertEventWithDeliveries(trx: Trx, accountId: string, e: NewEvent, onlyTo: string | null = null): Promise<FannedOutEvent> {
  const { rows } = await preparedRaw(
    trx,
    'insert_event_with_deliveries',
    `WITH e AS (
       INSERT INTO events (id, account_id, type, inbox_id, message_id, payload)
       VALUES (:id, :accountId, :type, :inboxId, :messageId, :payload::jsonb)
       RETURNING id, account_id, type
     ), d AS (
       INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, event)
       SELECT gen_random_uuid(), e.account_id, w.id, e.id, e.type
         FROM e JOIN webhooks w ON w.account_id = e.account_id
        WHERE w.status = 'active' AND w.deleted_at IS NULL
          AND CASE WHEN :onlyTo::text IS NULL THEN e.type = ANY (w.events) ELSE w.id = :onlyTo END
       RETURNING id
     )
     SELECT (SELECT id FROM e) AS event_id, coalesce((SELECT array_agg(id) FROM d), '{}') AS delivery_ids`,
    {
      id: newId('evt'),
      accountId,
      type: e.type,
      inboxId: e.inboxId ?? null,
      messageId: e.messageId ?? null,
      payload: JSON.stringify(e.payload),
      onlyTo,
    },
  );
  const row = rows[0] as { event_id: string; delivery_ids: string[] };
  return { eventId: row.event_id, deliveryIds: row.delivery_ids };
}

/**
 * Deliveries that may have missed their after-commit enqueue: pending, no attempt yet, and never touched since
 * the insert (a redelivered or recovered delivery has been updated and has its own job). The caller re-adds
 * their jobs under the delivery id, which is a no-op for every job that exists.
 */
export async function findUnsentDeliveryIds(conn: Conn, filter: { eventId: string } | { olderThan: Date; after?: { createdAt: Date; id: string }; limit: number }): Promise<Array<{ id: string; created_at: Date }>> {
  const q = conn('webhook_deliveries')
    .select('id', 'created_at')
    .where({ status: 'pending', attempts: 0 })
    .whereRaw('updated_at = created_at');
  if ('eventId' in filter) return q.where({ event_id: filter.eventId });
  q.where('created_at', '<', filter.olderThan).orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(filter.limit);
  if (filter.after) q.whereRaw('(created_at, id) > (?, ?)', [filter.after.createdAt, filter.after.id]);
  return q;
}
