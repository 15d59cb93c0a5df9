import { jobs } from '../src/platform/queues.js';
import { attemptDelivery } from '../src/delivery/attempt.js';
import { addDeliveryJobs } from '../src/delivery/schedule.js';
import { withJobSpan } from '../src/platform/tracing.js';
import { defineProcessor } from './processor.js';

/**
 * The first attempts of several deliveries, side by side: each is the attempt deliver-webhook would make, guarded by
 * its own row's job_seq, so one already made (this job run again) is not made twice. A delivery its throttle holds
 * back gets a deliver-webhook job of its own, delayed to its slot, under the id its row names. Returns each
 * delivery's outcome, and their count as the job's outcome (`4 succeeded, 1 retry scheduled`). When an attempt could
 * not be made (Postgres or Redis away), the job fails once the others have settled, and BullMQ runs it again for the
 * rest (docs/adr/0080-deliveries-per-job.md).
 */
export const deliverWebhooksProcessor = defineProcessor({
  job: jobs.deliverWebhooks,
  async process(deps, data, job) {
    // Each attempt continues its own delivery's trace: the deliveries of one job come from many commits.
    const attempt = (d: (typeof data.deliveries)[number]) =>
      withJobSpan(
        {
          queue: job.queueName,
          name: jobs.deliverWebhook.name,
          id: `${d.deliveryId}.${d.seq}`,
          attempt: 1,
          traceparent: d.traceparent,
        },
        () => attemptDelivery(deps, d.deliveryId, d.seq),
      );
    const settled = await Promise.allSettled(data.deliveries.map(attempt));
    const outcomes: Record<string, string> = {};
    const held: Array<Promise<void>> = [];
    settled.forEach((s, i) => {
      if (s.status === 'rejected') return;
      const id = data.deliveries[i]!.deliveryId;
      if (typeof s.value === 'string') outcomes[id] = s.value;
      else {
        const { ref, waitMs, slotRps } = s.value;
        outcomes[id] = 'held for its slot';
        held.push(addDeliveryJobs(deps, [{ ...ref, slotRps }], waitMs));
      }
    });
    await Promise.all(held);
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    return { outcome: tally(Object.values(outcomes)), outcomes };
  },
});

/** How many of each outcome, most first: `4 succeeded, 1 retry scheduled`. */
function tally(outcomes: string[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o, (counts.get(o) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([o, n]) => `${n} ${o}`)
    .join(', ');
}
