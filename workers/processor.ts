import type { Job } from 'bullmq';
import type { Deps } from '../src/app/deps.js';
import type { JobData, JobDefinition } from '../src/platform/queues.js';

/** A processor handles one job of the catalog. It is given ids, reloads what it needs and returns early when done. */
export interface Processor<J extends JobDefinition = JobDefinition> {
  job: J;
  /** `token` is the lock token of this run of the job (to move it to delayed, for instance). */
  process(deps: Deps, data: JobData<J>, job: Job, token?: string): Promise<unknown>;
}

export const defineProcessor = <J extends JobDefinition>(p: Processor<J>): Processor => p as unknown as Processor;
