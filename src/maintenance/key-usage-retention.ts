import type { Deps } from '../app/deps.js';
import { retainedSince } from './retention.js';

/**
 * Key usage hours (api_key_usage, src/keys/key-usage.ts) are statistics: the maintenance job drops those past the
 * retention of the events, in batches.
 */
export async function pruneKeyUsage(deps: Pick<Deps, 'db' | 'config'>): Promise<number> {
  const before = retainedSince(deps.config);
  let total = 0;
  for (;;) {
    const { rowCount } = await deps.db.raw(
      `DELETE FROM api_key_usage WHERE ctid = ANY (ARRAY(SELECT ctid FROM api_key_usage WHERE hour < ? LIMIT 1000))`,
      [before],
    );
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < 1000) return total;
  }
}
