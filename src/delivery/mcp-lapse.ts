import type { Deps } from '../app/deps.js';
import { now } from '../platform/clock.js';
import { sendTerminated } from './mcp-control.js';
import { advance } from './record.js';
import type { SendContext } from './sql/load.js';
import { stopDelivery } from './sql/record.js';
import { endMcpSubscription } from './sql/subscriptions.js';

/**
 * Before an MCP subscription's delivery is sent: past its TTL it is stopped (a retry of an event from before the
 * expiry included: nothing is delivered after it); a principal that lost access (key deactivated, deleted or
 * expired, OAuth grant revoked) ends the subscription at this, its next event, with a terminated body instead.
 * Null: the delivery goes ahead.
 */
export async function stopLapsedMcpDelivery(deps: Deps, ctx: SendContext, seq: number): Promise<string | null> {
  const expired = ctx.webhook_expires_at !== null && new Date(ctx.webhook_expires_at) <= now();
  if (!expired && ctx.principal_live) return null;
  if (!expired) {
    const reason = 'The credential that subscribed no longer has access.';
    if (await endMcpSubscription(deps.db, ctx.account_id, ctx.webhook_id, reason)) {
      await sendTerminated(deps, ctx, { code: -32012, message: 'Forbidden', data: { reason: 'access revoked' } });
    }
  }
  if (await stopDelivery(deps.db, ctx.account_id, ctx, seq)) await advance(deps, ctx);
  return expired ? 'subscription expired' : 'subscription ended: access revoked';
}
