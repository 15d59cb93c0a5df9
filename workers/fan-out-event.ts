import { jobs } from '../src/platform/queues.js';
import { fanOutEvent } from '../src/webhooks/delivery.service.js';
import { defineProcessor } from './processor.js';

/** One event → one delivery row and one delivery job per active matching subscription. Safe to re-run. */
export const fanOutEventProcessor = defineProcessor({
  job: jobs.fanOutEvent,
  async process(deps, data) {
    return { deliveries: await fanOutEvent(deps, data.eventId) };
  },
});
