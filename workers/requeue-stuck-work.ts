import { findStaleQueuedMessages } from '../src/messages/messages.repository.js';
import { enqueueSend } from '../src/messages/messages.service.js';
import { jobs } from '../src/platform/queues.js';
import { findStaleQueuedRuns } from '../src/runs/runs.repository.js';
import { enqueueRun } from '../src/runs/runs.service.js';
import { defineProcessor } from './processor.js';
import { now } from '../src/platform/clock.js';

/**
 * Runs and messages are committed as queued, then enqueued after commit. If that enqueue failed (Redis away,
 * process killed in between), the row stays queued with no job. This sweep enqueues such rows again; the job id
 * is the row id, so a row that does have its job is not enqueued twice.
 */
const BATCH = 500;

export const requeueStuckWorkProcessor = defineProcessor({
  job: jobs.requeueStuckWork,
  async process(deps) {
    const olderThan = new Date(now().getTime() - deps.config.requeueAfterMs);
    const runs = await findStaleQueuedRuns(deps.db, olderThan, BATCH);
    for (const runId of runs) await enqueueRun(deps, runId);
    const messages = await findStaleQueuedMessages(deps.db, olderThan, BATCH);
    for (const messageId of messages) await enqueueSend(deps, messageId);
    if (runs.length || messages.length)
      deps.logger.info({ runs: runs.length, messages: messages.length }, 'queued work re-enqueued by the sweep');
    return { runs: runs.length, messages: messages.length };
  },
});
