import { findOwner } from '../accounts/accounts.repository.js';
import type { Deps } from '../app/deps.js';
import { transactWithEvents } from '../events/emit.js';
import { operationalEvent } from '../events/event-payloads.js';
import { sendPlatformEmail } from '../messages/transport.js';
import { insertNotification } from '../notifications/notifications.repository.js';
import { iso } from '../platform/clock.js';
import { newUuid } from '../platform/ids.js';
import { sendTerminated } from './mcp-control.js';
import type { CallbackFailure } from './mcp-occurrence.js';
import type { SendContext } from './sql/load.js';
import { disableWebhookOnce } from './sql/subscriptions.js';

/**
 * Disables the subscription if this caller wins the transition, and writes the owner's notification and the
 * webhook.disabled event in the same transaction (so a disable is never left without them); the email follows
 * the commit. An MCP Events subscription is told it has ended with a terminated body naming `failure` (the
 * category of the failures that disabled it): a refresh of it is a fresh subscribe (docs/mcp-events-webhook.md).
 */
export async function disableAndNotify(
  deps: Deps,
  ctx: SendContext,
  reason: string,
  threshold?: number,
  failure: CallbackFailure = 'connection_refused',
): Promise<void> {
  const title = 'A webhook subscription was disabled';
  const text = `Deliveries to ${ctx.url} (${ctx.webhook_id}) have stopped. ${reason} Fix the receiver, then re-enable it with POST /v1/webhooks/${ctx.webhook_id}/enable (optionally with recoverSince to re-send what failed).`;
  const won = await transactWithEvents(deps, ctx.account_id, async (trx, emit) => {
    const disabled = await disableWebhookOnce(trx, ctx.account_id, ctx.webhook_id, reason, threshold);
    if (!disabled) return false;
    // To the account's other active subscriptions that ask for it: this one is disabled already, so the
    // fan-out passes it over, and `exceptWebhookId` says so explicitly.
    await emit(
      operationalEvent('webhook.disabled', {
        webhookId: ctx.webhook_id,
        url: ctx.url,
        reason,
        consecutiveFailures: disabled.consecutive_failures,
        disabledAt: iso(disabled.disabled_at)!,
      }),
      { exceptWebhookId: ctx.webhook_id },
    );
    await insertNotification(trx, ctx.account_id, {
      kind: 'webhook.disabled',
      title,
      body: text,
      data: { webhookId: ctx.webhook_id, url: ctx.url, reason },
      dedupeKey: `webhook.disabled:${ctx.webhook_id}:${newUuid()}`,
    });
    return true;
  });
  if (!won) return;
  if (ctx.mcp_subscription_id !== null) {
    const error = { code: -32015, message: 'CallbackEndpointError', data: { reason: failure } };
    await sendTerminated(deps, ctx, error);
  }
  deps.metrics.subscriptionsDisabled.inc({ reason: threshold === undefined ? 'gone' : 'failures' });
  deps.logger.warn({ webhookId: ctx.webhook_id, accountId: ctx.account_id, reason }, 'webhook subscription disabled');
  const owner = await findOwner(deps.db, ctx.account_id);
  if (!owner) return;
  try {
    await sendPlatformEmail(deps, { to: owner.email, subject: title, text });
  } catch (err) {
    // The notification row is the record; a mail server hiccup must not fail the delivery job.
    deps.logger.warn({ webhookId: ctx.webhook_id, err: (err as Error).message }, 'webhook-disabled email failed');
  }
}
