import { jobs } from '../src/platform/queues.js';
import { relayUnsentDeliveries } from '../src/webhooks/dispatch.js';
import { defineProcessor } from './processor.js';

/** Deliveries older than this with no attempt are taken to have missed the after-commit enqueue. */
export const RELAY_AFTER_MS = 2000;

export const relayOutboxProcessor = defineProcessor({
  job: jobs.relayOutbox,
  async process(deps) {
    // Up to 20 batches of 1,000 per run, so a long Redis outage drains within a few runs.
    const relayed = await relayUnsentDeliveries(deps, new Date(Date.now() - RELAY_AFTER_MS), 1000, 20);
    if (relayed) deps.logger.info({ relayed }, 'sweep re-added the jobs of deliveries with no attempt yet');
    return { relayed };
  },
});
