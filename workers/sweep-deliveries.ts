import { jobs } from '../src/platform/queues.js';
import { sweepDeliveries } from '../src/delivery/sweep.js';
import { defineProcessor } from './processor.js';

/** The delivery sweep (src/delivery/sweep.ts), run by the relay-outbox schedule. */
export const sweepDeliveriesProcessor = defineProcessor({
  job: jobs.relayOutbox,
  async process(deps) {
    const result = await sweepDeliveries(deps);
    deps.metrics.sweepRescheduled.inc(result.rescheduled + result.advanced);
    if (result.rescheduled || result.advanced) {
      deps.logger.info(result, 'the sweep scheduled deliveries whose job was gone');
    }
    return result;
  },
});
