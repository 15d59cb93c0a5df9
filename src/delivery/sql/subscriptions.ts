import { prepare, runPrepared, type Conn } from '../../platform/db.js';

// The statements a delivery makes on its subscription's row: the disable after consecutive failures (or a 410),
// and the close of a stream whose listen session is gone. The subscription's other statements are the webhooks
// resource's (src/webhooks/webhooks.repository.ts), which uses these two as well.

/** What a disable answers of the row; the caller names the row type it reads. */
export interface DisabledSubscription {
  consecutive_failures: number;
  disabled_at: Date | null;
}

const DISABLE_ONCE = prepare<DisabledSubscription>(
  'disable_subscription_once',
  `UPDATE webhooks SET status = 'disabled', disabled_at = now(), disabled_reason = $3, updated_at = now()
    WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL AND status = 'active'
      AND ($4::int IS NULL OR consecutive_failures >= $4)
   RETURNING *`,
);

/**
 * Disables the subscription if it is still active and (when given) its count reached the threshold.
 * Many exhausted deliveries may call this at once; the row lock and the status condition let exactly one win
 * (the winner gets the disabled row, as the caller's row type names it).
 */
export async function disableWebhookOnce<Row extends DisabledSubscription>(
  conn: Conn,
  accountId: string,
  webhookId: string,
  reason: string,
  threshold?: number,
): Promise<Row | undefined> {
  const [row] = await runPrepared(conn, DISABLE_ONCE, [accountId, webhookId, reason, threshold ?? null]);
  return row as Row | undefined;
}

const CLOSE_STREAMS = prepare<{ id: string }>(
  'close_streams',
  `UPDATE webhooks SET deleted_at = now(), status = 'disabled', updated_at = now()
    WHERE account_id = $1 AND id = ANY ($2::text[]) AND deleted_at IS NULL AND kind = 'stream'
   RETURNING id`,
);

/** A stream whose session ended: deleted, so its pending deliveries stop (docs/adr/0054-stream-destinations.md). */
export async function closeStreams(conn: Conn, accountId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return (await runPrepared(conn, CLOSE_STREAMS, [accountId, ids])).length;
}

const END_MCP_SUBSCRIPTION = prepare<{ id: string }>(
  'end_mcp_subscription',
  `UPDATE webhooks SET deleted_at = now(), status = 'disabled', disabled_at = now(), disabled_reason = $3,
          updated_at = now()
    WHERE account_id = $1 AND id = $2 AND deleted_at IS NULL AND mcp_subscription_id IS NOT NULL
   RETURNING id`,
);

/**
 * An MCP subscription ended on the server's side (its principal lost access): deleted, so its deliveries stop and
 * a refresh is a fresh subscribe. Many deliveries may call this at once; exactly one wins (and sends terminated).
 */
export async function endMcpSubscription(conn: Conn, accountId: string, id: string, reason: string): Promise<boolean> {
  return (await runPrepared(conn, END_MCP_SUBSCRIPTION, [accountId, id, reason])).length > 0;
}
