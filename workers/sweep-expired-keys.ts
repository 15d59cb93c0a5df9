import { sweepExpiredKeys } from '../src/keys/keys-sweep.service.js';
import { jobs } from '../src/platform/queues.js';
import { defineProcessor } from './processor.js';

export const sweepExpiredKeysProcessor = defineProcessor({
  job: jobs.sweepExpiredKeys,
  async process(deps) {
    const result = await sweepExpiredKeys(deps);
    if (result.expired || result.gracesEnded || result.warned) deps.logger.info(result, 'api key sweep');
    return result;
  },
});
