import type { Conn } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import type { EventType } from './event-types.js';

export interface EventRow {
  id: string;
  account_id: string;
  type: string;
  inbox_id: string | null;
  message_id: string | null;
  payload: Record<string, unknown>;
  created_at: Date;
  dispatched_at: Date | null;
}

export interface NewEvent {
  type: EventType;
  inboxId?: string | null;
  messageId?: string | null;
  /** The serialized resource, exactly as the API returns it. */
  payload: Record<string, unknown>;
}

export async function insertEvent(conn: Conn, accountId: string, e: NewEvent): Promise<EventRow> {
  const [row] = await conn<EventRow>('events')
    .insert({ id: newId('evt'), account_id: accountId, type: e.type, inbox_id: e.inboxId ?? null, message_id: e.messageId ?? null, payload: JSON.stringify(e.payload) as unknown as Record<string, unknown> })
    .returning('*');
  return row!;
}

export async function findEvent(conn: Conn, eventId: string): Promise<EventRow | undefined> {
  return conn<EventRow>('events').where({ id: eventId }).first();
}

export async function markDispatched(conn: Conn, eventIds: string[]): Promise<void> {
  if (eventIds.length) await conn('events').whereIn('id', eventIds).whereNull('dispatched_at').update({ dispatched_at: conn.fn.now() });
}

/** Events committed but never handed to the queue (Redis was down, or the process died after commit). */
export async function findUndispatched(conn: Conn, olderThan: Date, limit: number): Promise<string[]> {
  const rows = await conn('events').select('id').whereNull('dispatched_at').where('created_at', '<', olderThan).orderBy('created_at').limit(limit);
  return rows.map((r: { id: string }) => r.id);
}

export function listEvents(conn: Conn, accountId: string, page: PageQuery) {
  return paginate<EventRow>(conn('events').where({ account_id: accountId }), 'events', page);
}
