import { DelayedError, type WorkerOptions } from 'bullmq';
import type { Deps } from '../src/app/deps.js';
import { jobs } from '../src/platform/queues.js';
import { attemptDelivery } from '../src/delivery/attempt.js';
import { defineProcessor } from './processor.js';
import { now } from '../src/platform/clock.js';

/**
 * One attempt of one delivery by the job its row names; the next attempt, if any, is a new job. A delivery its
 * subscription's throttle holds back waits as this same job (same id, same job_seq, no row written, no attempt
 * used): moved to delayed until its slot, which the sweep counts as alive.
 */
export const deliverWebhookProcessor = defineProcessor({
  job: jobs.deliverWebhook,
  async process(deps, data, job, token) {
    const outcome = await attemptDelivery(deps, data.deliveryId, data.seq, data.slotRps);
    if (typeof outcome === 'string') return { outcome };
    await job.moveToDelayed(now().getTime() + outcome.waitMs, token);
    // After the move: a process that dies in between leaves a delayed job without the mark, which asks again
    // (later, never earlier, than its slot).
    await job.updateData({ ...data, slotRps: outcome.slotRps });
    throw new DelayedError();
  },
});

/**
 * Worker settings of the webhook-delivery queue. The lock must outlive a whole attempt (timeout plus the
 * bookkeeping around it) so a slow receiver never makes a live job look stalled; it is also how soon the job of
 * a killed worker is picked up again, so it is kept a small multiple of the timeout.
 *
 * maxStalledCount 1: BullMQ puts a job whose worker died back in the queue once. If it stalls again (a worker
 * crash loop, a poison delivery), BullMQ fails it and the sweep schedules again the delivery from its row at the
 * sweep's pace, so nothing is lost and a delivery that kills its workers cannot do so in a tight loop.
 */
export function webhookDeliverySettings(deps: Deps): Partial<WorkerOptions> {
  const { timeoutMs } = deps.config.webhooks;
  const lockDuration = Math.max(timeoutMs * 3, 1500);
  return { lockDuration, stalledInterval: lockDuration, maxStalledCount: 1 };
}
