import type { Conn } from '../platform/db.js';
import { iso } from '../platform/clock.js';
import { newId } from '../platform/ids.js';
import { paginate, type PageQuery } from '../platform/pagination.js';

interface NotificationRow {
  id: string;
  account_id: string;
  kind: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  dedupe_key: string | null;
  created_at: Date;
}

export interface NewNotification {
  kind: string;
  title: string;
  body: string;
  data?: Record<string, unknown>;
  /** At most one notification per account and dedupe key; returns false when it already exists. */
  dedupeKey?: string;
}

export async function insertNotification(conn: Conn, accountId: string, n: NewNotification): Promise<boolean> {
  const rows = await conn('notifications')
    .insert({
      id: newId('ntf'),
      account_id: accountId,
      kind: n.kind,
      title: n.title,
      body: n.body,
      data: JSON.stringify(n.data ?? {}),
      dedupe_key: n.dedupeKey ?? null,
    })
    .onConflict(['account_id', 'dedupe_key'])
    .ignore()
    .returning('id');
  return rows.length > 0;
}

export function listNotifications(conn: Conn, accountId: string, page: PageQuery) {
  return paginate<NotificationRow>(conn('notifications').where({ account_id: accountId }), 'notifications', page);
}

export const toNotificationResponse = (n: NotificationRow) => ({
  id: n.id,
  kind: n.kind,
  title: n.title,
  body: n.body,
  data: n.data,
  createdAt: iso(n.created_at),
});
