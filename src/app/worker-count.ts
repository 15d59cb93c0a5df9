import { availableParallelism } from 'node:os';
import type { Config } from '../platform/config.js';

/** WORKERS=auto: one worker process per core the API process leaves free, at least one. */
export function resolveWorkerCount(workers: Config['workers']): number {
  return workers === 'auto' ? Math.max(1, availableParallelism() - 1) : workers;
}
