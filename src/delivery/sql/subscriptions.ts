import type { Conn } from '../../platform/db.js';

// The statements a delivery makes on its subscription's row: the disable after consecutive failures (or a 410),
// and the close of a stream whose listen session is gone. The subscription's other statements are the webhooks
// resource's (src/webhooks/webhooks.repository.ts), which uses these two as well.

/** What a disable answers of the row; the caller names the row type it reads. */
export interface DisabledSubscription {
  consecutive_failures: number;
  disabled_at: Date | null;
}

/** The account's subscriptions that are not deleted. */
const live = (conn: Conn, accountId: string) =>
  conn('webhooks').where({ account_id: accountId }).whereNull('deleted_at');

/**
 * Disables the subscription if it is still active and (when given) its count reached the threshold.
 * Many exhausted deliveries may call this at once; the row lock and the status condition let exactly one win
 * (the winner gets the disabled row).
 */
export async function disableWebhookOnce<Row extends DisabledSubscription>(
  conn: Conn,
  accountId: string,
  webhookId: string,
  reason: string,
  threshold?: number,
): Promise<Row | undefined> {
  const q = live(conn, accountId).where({ id: webhookId, status: 'active' });
  if (threshold !== undefined) q.where('consecutive_failures', '>=', threshold);
  const [row] = await q
    .update({
      status: 'disabled',
      disabled_at: conn.fn.now() as unknown as Date,
      disabled_reason: reason,
      updated_at: conn.fn.now() as unknown as Date,
    })
    .returning('*');
  return row as Row | undefined;
}

/** A stream whose session ended: deleted, so its pending deliveries stop (docs/adr/0054-stream-destinations.md). */
export async function closeStreams(conn: Conn, accountId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return live(conn, accountId)
    .where({ kind: 'stream' })
    .whereIn('id', ids)
    .update({
      deleted_at: conn.fn.now() as unknown as Date,
      status: 'disabled',
      updated_at: conn.fn.now() as unknown as Date,
    });
}
