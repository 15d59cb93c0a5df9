import type { Deps } from '../app/deps.js';
import { now } from '../platform/clock.js';
import { disableAndNotify } from './disable.js';
import { callbackFailureOf } from './mcp-occurrence.js';
import { reportAttempt } from './report.js';
import { nextStep, type NextStep } from './retry-policy.js';
import { scheduleCommitted, scheduleDeliveries, type JobRef } from './schedule.js';
import type { SendContext } from './sql/load.js';
import type { Answer } from './transport.js';
import { recordGone, type AttemptRecord } from './sql/record.js';

// Record: the attempt row and the transition its outcome calls for, in one statement (sql/record.ts), then what
// follows the transition: a retry's job, the exhaustion's events and the disable, an ordering key's advance. The
// endpoint's health figures and the attempt's log line and metrics come last, whatever happened.

/** What the job of a delivery's attempt by `seq` is added with. */
export const jobRefOf = (ctx: SendContext, seq: number): JobRef => ({
  id: ctx.id,
  job_seq: seq,
  event: ctx.event,
  webhook_id: ctx.webhook_id,
  ordering_key: ctx.ordering_key,
});

/** After an ordered delivery reached a final state: its key advances to its next delivery (ordering.ts). */
export async function advance(deps: Deps, ctx: SendContext): Promise<void> {
  if (ctx.ordering_key !== null) {
    await deps.delivery.advance({ webhook_id: ctx.webhook_id, ordering_key: ctx.ordering_key });
  }
}

/** Records an attempt that got `res`, makes its transition, and reports it. Answers the job's short outcome. */
export async function recordAttempt(deps: Deps, ctx: SendContext, record: AttemptRecord, res: Answer): Promise<string> {
  const at = now().getTime();
  const step = nextStep(deps.config, ctx.round_attempts + 1, res, at);
  try {
    return await transition(deps, ctx, record, step);
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

/** The transition the step calls for, and what follows it (when final, the key's advance). */
async function transition(deps: Deps, ctx: SendContext, record: AttemptRecord, step: NextStep): Promise<string> {
  const { config, delivery } = deps;
  const records = ctx.ordering_key === null ? delivery.unordered : delivery.ordered;
  switch (step.kind) {
    case 'succeeded': {
      if (!(await records.succeed(record))) return 'succeeded (delivery had moved on)';
      await advance(deps, ctx);
      return 'succeeded';
    }
    case 'retry': {
      const newSeq = await records.retry({ ...record, retryDelayMs: step.delayMs });
      if (newSeq === null) return 'failed (delivery had moved on)';
      await scheduleDeliveries(deps, [jobRefOf(ctx, newSeq)], step.delayMs);
      return 'retry scheduled';
    }
    case 'exhausted': {
      const { consecutiveFailures: count, events } = await records.exhaust({ ...record, eventId: ctx.event_id });
      await scheduleCommitted(deps, events);
      const { disableAfter } = config.webhooks;
      if (count !== null && count >= disableAfter) {
        const failure = callbackFailureOf({ error: record.error, status: record.responseStatus });
        await disableAndNotify(deps, ctx, `${count} consecutive deliveries failed every retry.`, disableAfter, failure);
      }
      // After a disable, so that the advance stops the key's queue at once instead of one job at a time.
      if (count !== null) await advance(deps, ctx);
      return count === null ? 'failed (delivery had moved on)' : 'exhausted';
    }
    case 'gone': {
      const [moved] = await recordGone(deps.db, [record]);
      if (moved) {
        await disableAndNotify(deps, ctx, 'The receiver answered 410 Gone.', undefined, 'http_4xx');
        await advance(deps, ctx);
      }
      return 'gone';
    }
  }
}
