import { now } from '../platform/clock.js';
import type { Deps } from '../app/deps.js';
import { recordGone, stopDelivery, type AttemptRecord, type SendContext } from './deliveries.repository.js';
import { armDeliveryJobs, dispatchCommitted, type JobRef } from './dispatch.js';
import { reportAttempt } from './attempt-report.js';
import { requestHeadersJson, responseHeadersJson } from './attempt-headers.js';
import { disableAndNotify } from './disable.service.js';
import { buildEnvelope } from './envelope.js';
import { nextStep, type NextStep } from './retry-policy.js';
import { signatureHeaders } from './signature.js';
import { takeSlot, type Throttled } from './throttle.js';
import { STREAM_FULL, type StreamResponse } from './stream-transport.js';
import { closeStreams } from './webhooks.repository.js';
import { handOffOrderingKey } from './ordering.service.js';

export const USER_AGENT = 'Switchboard-Webhooks/1';

/** A delivery its subscription's throttle (or a full stream) holds back: the job of `ref` waits `waitMs`. */
export interface Held extends Throttled {
  ref: JobRef;
}

/**
 * One attempt of one delivery by the job `seq` names. Returns a short outcome for the job's record, or how long
 * the job must wait for its subscription's throttle (nothing sent, nothing written). A receiver's failure is not
 * an error here: the retry is a new job armed by the transition. Throws only when this process could not do its
 * part (Postgres or Redis away), so BullMQ runs the job again.
 */
export async function attemptDelivery(
  deps: Deps,
  deliveryId: string,
  seq: number,
  slotRps?: number,
): Promise<string | Held> {
  const { config, db, deliveryBatches: batches } = deps;
  const ctx = await batches.load(deliveryId);
  if (!ctx) return 'missing';
  if (ctx.status !== 'pending') {
    // A job run again after its process ended between the transition and the hand-off: hand off now rather than
    // at the relay sweep's pace (a hand-off run twice does nothing).
    if (ctx.job_seq === seq) await handOff(deps, ctx);
    return `already ${ctx.status}`;
  }
  // Re-armed since this job was added (a redeliver, the relay sweep): the newer job makes the attempt.
  if (ctx.job_seq !== seq) return 'stale job';
  if (ctx.webhook_deleted_at || ctx.webhook_status !== 'active') {
    if (await stopDelivery(db, ctx.account_id, ctx, seq)) await handOff(deps, ctx);
    return 'subscription not active';
  }
  const throttled = await takeSlot(deps.webhookThrottle, ctx.webhook_id, ctx.rate_limit_per_second, slotRps);
  const ref = jobRefOf(ctx, seq);
  if (throttled) {
    deps.metrics.throttleWaits.inc();
    return { ...throttled, ref };
  }

  const body = JSON.stringify(buildEnvelope(ctx));
  const headers = signedHeaders(deps, ctx, body);
  const res = await send(deps, ctx, body, headers);
  // A stream already holding its limit of unreported deliveries: wait as a throttled delivery does (no slot held).
  if (res === STREAM_FULL) return { waitMs: STREAM_FULL_WAIT_MS + Math.floor(Math.random() * 100), slotRps, ref };
  const record: AttemptRecord = {
    accountId: ctx.account_id,
    deliveryId: ctx.id,
    deliveryCreatedAt: ctx.created_at,
    webhookId: ctx.webhook_id,
    event: ctx.event,
    url: ctx.url,
    seq,
    attemptNumber: ctx.attempts + 1,
    responseStatus: res.status ?? null,
    responseBody: res.body ?? null,
    requestHeaders: requestHeadersJson(headers),
    // A stream's report carries no headers of the local receiver: absent, not an empty answer.
    responseHeaders: res.headers && ctx.webhook_kind === 'http' ? responseHeadersJson(res.headers) : null,
    error: res.ok ? null : res.error,
    errorMessage: res.ok ? null : res.message,
    durationMs: res.durationMs,
  };

  const at = now().getTime();
  const step = nextStep(config, ctx.round_attempts + 1, res, at);
  try {
    return await recordAndMove(deps, ctx, record, step);
  } finally {
    // Endpoint health counts every attempt made, after its record so the two statements do not compete.
    deps.webhookStats.record({
      accountId: ctx.account_id,
      webhookId: ctx.webhook_id,
      at,
      ok: res.ok,
      status: res.status ?? null,
      error: res.ok ? null : res.error,
      durationMs: res.durationMs,
    });
    reportAttempt(deps, record, step.kind, ctx.event_created_at, at);
  }
}

/** How long a delivery to a full stream waits before it asks again. */
const STREAM_FULL_WAIT_MS = 250;

/**
 * The transport of one attempt: a POST to the subscription's URL, or for a stream destination the same signed
 * request handed to the `switchboard listen` session holding it, and its report (docs/adr/0054-stream-destinations.md).
 */
async function send(
  deps: Deps,
  ctx: SendContext,
  body: string,
  headers: Record<string, string>,
): Promise<StreamResponse | typeof STREAM_FULL> {
  if (ctx.webhook_kind === 'http') return deps.http.post(ctx.url, body, headers);
  const res = await deps.streamTransport.send(
    ctx.webhook_id,
    { deliveryId: ctx.id, event: ctx.event, attempt: ctx.attempts + 1, headers, body },
    deps.config.webhooks.timeoutMs,
  );
  // Nobody holds the stream: its web process ended without closing it. Closed now, so its retries stop.
  if (res !== STREAM_FULL && res.noHolder) {
    await closeStreams(deps.db, ctx.account_id, [ctx.webhook_id]);
  }
  return res;
}

/** What the job of a delivery's attempt by `seq` is added with. */
const jobRefOf = (ctx: SendContext, seq: number): JobRef => ({
  id: ctx.id,
  job_seq: seq,
  event: ctx.event,
  webhook_id: ctx.webhook_id,
  ordering_key: ctx.ordering_key,
});

/** After an ordered delivery reached a final state: its key's next delivery goes (ordering.service.ts). */
async function handOff(deps: Deps, ctx: SendContext): Promise<void> {
  if (ctx.ordering_key !== null)
    await handOffOrderingKey(deps, { webhook_id: ctx.webhook_id, ordering_key: ctx.ordering_key });
}

/** Records the attempt and makes the transition its outcome calls for (and, when final, the key's hand-off). */
async function recordAndMove(deps: Deps, ctx: SendContext, record: AttemptRecord, step: NextStep): Promise<string> {
  const { config, db, deliveryBatches: batches } = deps;
  const records = ctx.ordering_key === null ? batches.unordered : batches.ordered;
  switch (step.kind) {
    case 'succeeded': {
      if (!(await records.succeed(record))) return 'succeeded (delivery had moved on)';
      await handOff(deps, ctx);
      return 'succeeded';
    }
    case 'retry': {
      const newSeq = await records.retry({ ...record, retryDelayMs: step.delayMs });
      if (newSeq === null) return 'failed (delivery had moved on)';
      await armDeliveryJobs(deps, [jobRefOf(ctx, newSeq)], step.delayMs);
      return 'retry scheduled';
    }
    case 'exhausted': {
      const { consecutiveFailures: count, events } = await records.exhaust({ ...record, eventId: ctx.event_id });
      await dispatchCommitted(deps, events);
      if (count !== null && count >= config.webhooks.disableAfter) {
        await disableAndNotify(
          deps,
          ctx,
          `${count} consecutive deliveries failed every retry.`,
          config.webhooks.disableAfter,
        );
      }
      // After a disable, so that the hand-off stops the key's queue at once instead of one job at a time.
      if (count !== null) await handOff(deps, ctx);
      return count === null ? 'failed (delivery had moved on)' : 'exhausted';
    }
    case 'gone': {
      const [moved] = await recordGone(db, [record]);
      if (moved) {
        await disableAndNotify(deps, ctx, 'The receiver answered 410 Gone.');
        await handOff(deps, ctx);
      }
      return 'gone';
    }
  }
}

/**
 * Every header of the request, as sent and as recorded with the attempt: the signature headers, with the previous
 * secret too while its overlap lasts and the legacy one if set.
 */
function signedHeaders(deps: Deps, ctx: SendContext, body: string): Record<string, string> {
  const keyring = deps.webhookKeys;
  const previousValid =
    ctx.previous_secret_sealed && ctx.previous_secret_expires_at && new Date(ctx.previous_secret_expires_at) > now();
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-switchboard-event': ctx.event,
    'x-switchboard-delivery': ctx.id,
    ...signatureHeaders(ctx.id, body, Math.floor(now().getTime() / 1000), {
      current: keyring.keyOf(ctx.secret_sealed),
      previous: previousValid ? keyring.keyOf(ctx.previous_secret_sealed!) : null,
      legacy: ctx.legacy_secret_sealed ? keyring.keyOf(ctx.legacy_secret_sealed) : null,
    }),
  };
}
