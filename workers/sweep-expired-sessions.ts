import { sweepExpiredSessions } from '../src/accounts/sessions.service.js';
import { jobs } from '../src/platform/queues.js';
import { defineProcessor } from './processor.js';

export const sweepExpiredSessionsProcessor = defineProcessor({
  job: jobs.sweepExpiredSessions,
  async process(deps) {
    const deleted = await sweepExpiredSessions(deps);
    if (deleted) deps.logger.info({ deleted }, 'expired sessions deleted');
    return { deleted };
  },
});
