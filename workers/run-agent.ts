import { jobs } from '../src/platform/queues.js';
import { executeRun } from '../src/runs/run-executor.js';
import { defineProcessor } from './processor.js';

/** Runs one queued agent run (job id = run id) through the agent's runtime. */
export const runAgentProcessor = defineProcessor({
  job: jobs.runAgent,
  async process(deps, data, job) {
    const attempts = job.opts.attempts ?? 1;
    return executeRun(deps, data.runId, { last: job.attemptsMade + 1 >= attempts });
  },
});
