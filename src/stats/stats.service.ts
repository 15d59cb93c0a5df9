import { now } from '../platform/clock.js';
import type { Deps } from '../app/deps.js';
import { countAccountResources } from './stats.repository.js';

/** Current counts of everything the account holds; computed on read (cheap: indexed by account). */
export async function getAccountStats(deps: Deps, accountId: string) {
  return { ...(await countAccountResources(deps.db, accountId)), generatedAt: now().toISOString() };
}
