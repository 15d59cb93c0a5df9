import type { Deps } from '../app/deps.js';
import { now } from '../platform/clock.js';
import { requestHeadersJson, responseHeadersJson } from './attempt-headers.js';
import { buildEnvelope } from './envelope.js';
import { targetOf } from './mcp-control.js';
import { stopLapsedMcpDelivery } from './mcp-lapse.js';
import { buildOccurrence, mcpHeaders } from './mcp-occurrence.js';
import { advance, jobRefOf, recordAttempt } from './record.js';
import { signedHeaders } from './sign.js';
import type { SendContext } from './sql/load.js';
import { parkDelivery, stopDelivery, type AttemptRecord } from './sql/record.js';
import { takeSlot, type Throttled } from './throttle.js';
import { isBusy, isPulled, type DeliveryRequest } from './transport.js';
import type { JobRef } from './schedule.js';

/** A delivery its subscription's throttle (or a busy destination) holds back: the job of `ref` waits `waitMs`. */
export interface Held extends Throttled {
  ref: JobRef;
}

/**
 * One attempt of one delivery by the job `seq` names: load → (throttle) → sign → send → record. Returns a short
 * outcome for the job's record, or how long the job must wait for its subscription's throttle (nothing sent,
 * nothing written). A receiver's failure is not an error here: the retry is a new job scheduled by the record.
 * Throws only when this process could not do its part (Postgres or Redis away), so BullMQ runs the job again.
 */
export async function attemptDelivery(
  deps: Deps,
  deliveryId: string,
  seq: number,
  slotRps?: number,
): Promise<string | Held> {
  const { delivery } = deps;
  const ctx = await delivery.load(deliveryId);
  if (!ctx) return 'missing';
  if (ctx.status !== 'pending') {
    // A job run again after its process ended between the transition and the advance: advance now rather than at
    // the sweep's pace (an advance run twice does nothing).
    if (ctx.job_seq === seq) await advance(deps, ctx);
    return `already ${ctx.status}`;
  }
  // Scheduled again since this job was added (a redeliver, the sweep): the newer job makes the attempt.
  if (ctx.job_seq !== seq) return 'stale job';
  if (ctx.webhook_deleted_at || ctx.webhook_status !== 'active') {
    if (await stopDelivery(deps.db, ctx.account_id, ctx, seq)) await advance(deps, ctx);
    return 'subscription not active';
  }
  if (ctx.mcp_subscription_id !== null) {
    const stopped = await stopLapsedMcpDelivery(deps, ctx, seq);
    if (stopped) return stopped;
  }
  const ref = jobRefOf(ctx, seq);
  const throttled = await takeSlot(delivery.throttle, ctx.webhook_id, ctx.rate_limit_per_second, slotRps);
  if (throttled) {
    deps.metrics.throttleWaits.inc();
    return { ...throttled, ref };
  }

  const request = signedRequest(deps, ctx);
  const res = await delivery.transports[ctx.webhook_kind]!.send(request);
  // A busy destination: wait as a throttled delivery does (no slot held).
  if (isBusy(res)) return { waitMs: res.waitMs, slotRps, ref };
  // A pulled destination: the delivery waits, with no due time, for its consumer's poll.
  if (isPulled(res))
    return (await parkDelivery(deps.db, ctx.account_id, ctx, seq)) ? 'waits for its consumer' : 'stale job';
  const record: AttemptRecord = {
    accountId: ctx.account_id,
    deliveryId: ctx.id,
    deliveryCreatedAt: ctx.created_at,
    webhookId: ctx.webhook_id,
    event: ctx.event,
    url: ctx.url,
    seq,
    attemptNumber: request.attempt,
    responseStatus: res.status ?? null,
    responseBody: res.body ?? null,
    requestHeaders: requestHeadersJson(request.headers),
    responseHeaders: res.headers ? responseHeadersJson(res.headers) : null,
    error: res.ok ? null : res.error,
    errorMessage: res.ok ? null : res.message,
    durationMs: res.durationMs,
  };
  return recordAttempt(deps, ctx, record, res);
}

/**
 * The body of a delivery, signed with its subscription's keys, for this attempt: the envelope, or for an MCP
 * Events subscription the EventOccurrence with its own headers (mcp-occurrence.ts).
 */
function signedRequest(deps: Deps, ctx: SendContext): DeliveryRequest {
  const mcp = ctx.mcp_subscription_id !== null;
  const body = JSON.stringify(mcp ? buildOccurrence(ctx) : buildEnvelope(ctx));
  return {
    accountId: ctx.account_id,
    webhookId: ctx.webhook_id,
    deliveryId: ctx.id,
    event: ctx.event,
    attempt: ctx.attempts + 1,
    url: ctx.url,
    target: { urlSealed: ctx.broker_url_sealed, settings: ctx.settings },
    headers: mcp ? mcpSignedHeaders(deps, ctx, body) : signedHeaders(deps.webhookKeys, ctx, body, now()),
    body,
  };
}

/** An MCP delivery's headers: webhook-id is the event's id (the receiver dedupes on it), no X-Switchboard-*. */
const mcpSignedHeaders = (deps: Deps, ctx: SendContext, body: string): Record<string, string> =>
  mcpHeaders(ctx.event_id, ctx.mcp_subscription_id!, body, now(), targetOf(deps, ctx).keys);
