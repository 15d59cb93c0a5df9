import type { Conn } from '../platform/db.js';
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
}

export interface NewEvent {
  type: EventType;
  inboxId?: string | null;
  messageId?: string | null;
  /** The serialized resource, exactly as the API returns it. */
  payload: Record<string, unknown>;
}

/** The account's events since `since` (the retention cutoff), newest first. */
export function listEvents(conn: Conn, accountId: string, page: PageQuery, since: Date) {
  return paginate<EventRow>(
    conn('events').where({ account_id: accountId }).where('created_at', '>=', since),
    'events',
    page,
  );
}
