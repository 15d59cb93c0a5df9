import { maintainPartitions } from '../src/maintenance/partitions.service.js';
import { jobs } from '../src/platform/queues.js';
import { defineProcessor } from './processor.js';

/**
 * Day partitions: created ahead, filling ones analyzed (docs/plans.md), expired ones dropped (retention). One
 * partition per step; resumable.
 */
export const maintainPartitionsProcessor = defineProcessor({
  job: jobs.maintainPartitions,
  async process(deps) {
    const result = await maintainPartitions(deps);
    const partitions = result.created || result.dropped.length || result.keptForPending.length;
    const statistics = result.analyzed.length || result.configured.length;
    if (partitions || statistics) deps.logger.info(result, 'partition maintenance');
    if (result.droppedUnpolled)
      deps.logger.warn(
        { deliveries: result.droppedUnpolled },
        'deliveries of poll subscriptions expired unpolled: their days passed retention',
      );
    if (result.keptForPending.length)
      deps.logger.warn({ partitions: result.keptForPending }, 'expired days kept: they still hold pending deliveries');
    return result;
  },
});
