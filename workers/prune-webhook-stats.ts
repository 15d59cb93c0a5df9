import { jobs } from '../src/platform/queues.js';
import { pruneWebhookStats } from '../src/webhooks/endpoint-stats.service.js';
import { defineProcessor } from './processor.js';

/** Deletes endpoint-health buckets no window reads any more. */
export const pruneWebhookStatsProcessor = defineProcessor({
  job: jobs.pruneWebhookStats,
  async process(deps) {
    const deleted = await pruneWebhookStats(deps);
    if (deleted) deps.logger.info({ deleted }, 'old webhook stats buckets pruned');
    return { deleted };
  },
});
