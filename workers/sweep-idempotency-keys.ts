import { sweepIdempotencyKeys } from '../src/idempotency/idempotency.service.js';
import { jobs } from '../src/platform/queues.js';
import { defineProcessor } from './processor.js';

/** Deletes Idempotency-Key records past their 24 hours (reads already ignore them). */
export const sweepIdempotencyKeysProcessor = defineProcessor({
  job: jobs.sweepIdempotencyKeys,
  async process(deps) {
    const deleted = await sweepIdempotencyKeys(deps);
    if (deleted) deps.logger.info({ deleted }, 'expired idempotency keys deleted');
    return { deleted };
  },
});
