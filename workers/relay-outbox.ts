import { jobs } from '../src/platform/queues.js';
import { relayOverdueDeliveries } from '../src/webhooks/dispatch.js';
import { relayStrandedOrderingKeys } from '../src/webhooks/ordering.service.js';
import { defineProcessor } from './processor.js';

/**
 * Re-arms pending deliveries more than WEBHOOK_RELAY_AFTER_MS past due whose job is gone: never added (Redis was
 * away at commit), failed (stalled past its limit, or out of attempts while Postgres was away), removed, or lost
 * with Redis's data. Up to 20 batches of 1,000 per run, so a long outage drains within a few runs. Then hands off
 * the ordering keys whose head became final that long ago without its hand-off (its process ended in between).
 */
export const relayOutboxProcessor = defineProcessor({
  job: jobs.relayOutbox,
  async process(deps) {
    const relayed = await relayOverdueDeliveries(deps, deps.config.webhooks.relayAfterMs, 1000, 20);
    const handedOff = await relayStrandedOrderingKeys(deps, deps.config.webhooks.relayAfterMs, 1000);
    const result = { ...relayed, handedOff };
    deps.metrics.relayRearms.inc(relayed.rearmed + handedOff);
    if (relayed.rearmed || handedOff) deps.logger.info(result, 'relay sweep re-armed deliveries whose job was gone');
    return result;
  },
});
