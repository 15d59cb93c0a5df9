import type { WorkerOptions } from 'bullmq';
import type { Deps } from '../src/platform/deps.js';
import { jobs } from '../src/platform/queues.js';
import { attemptDelivery, DeliveryAttemptFailed, retryDelayMs } from '../src/webhooks/delivery.service.js';
import { defineProcessor } from './processor.js';

/** One attempt of one delivery; a failure throws so BullMQ schedules the next one with the 'webhook' backoff. */
export const deliverWebhookProcessor = defineProcessor({
  job: jobs.deliverWebhook,
  async process(deps, data, job) {
    const outcome = await attemptDelivery(deps, data.deliveryId, { attemptsMade: job.attemptsMade, maxAttempts: job.opts.attempts ?? 1 });
    return { outcome };
  },
});

/**
 * Worker settings of the webhook-delivery queue. The lock must outlive a whole attempt (timeout plus the
 * bookkeeping around it) so a slow receiver never makes a live job look stalled; it is also how soon a job of a
 * killed worker is picked up again, so it is kept a small multiple of the timeout.
 */
export function webhookDeliverySettings(deps: Deps): Partial<WorkerOptions> {
  const { timeoutMs, concurrency } = deps.config.webhooks;
  const lockDuration = Math.max(timeoutMs * 3, 1500);
  if (lockDuration < timeoutMs * 2) throw new Error(`webhook-delivery lockDuration ${lockDuration} ms must exceed twice WEBHOOK_TIMEOUT_MS`);
  return {
    concurrency,
    lockDuration,
    stalledInterval: lockDuration,
    settings: {
      backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) =>
        err instanceof DeliveryAttemptFailed && err.delayMs !== null ? err.delayMs : retryDelayMs(deps.config, attemptsMade, null),
    },
  };
}
