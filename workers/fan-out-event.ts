import { jobs } from '../src/platform/queues.js';
import { fanOutEvent } from '../src/delivery/schedule.js';
import { defineProcessor } from './processor.js';

/** The delivery jobs of one event with many subscribers, added in bulk off the request path. Safe to re-run. */
export const fanOutEventProcessor = defineProcessor({
  job: jobs.fanOutEvent,
  async process(deps, data) {
    return { deliveries: await fanOutEvent(deps, data.eventId) };
  },
});
