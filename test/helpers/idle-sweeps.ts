import { deleteExpiredSessions } from '../../src/accounts/sessions.repository.js';
import { deleteExpiredKeys } from '../../src/idempotency/idempotency.repository.js';
import { clearEndedGraces, claimKeysToWarn, expireDueKeys } from '../../src/keys/keys-sweep.repository.js';
import { DAY_MS } from '../../src/maintenance/retention.js';
import { findStaleQueuedMessages } from '../../src/messages/messages.repository.js';
import { findStaleQueuedRuns } from '../../src/runs/runs.repository.js';
import type { Trx } from '../../src/platform/transaction.js';
import { pruneStatBuckets } from '../../src/webhooks/endpoint-stats.repository.js';

/**
 * The statements of the maintenance sweeps other than the delivery sweep, as an idle service runs them: the plan
 * tests hold each to the same rule as the delivery path's.
 */
export const runIdleSweeps = async (trx: Trx): Promise<unknown[]> => [
  await expireDueKeys(trx, new Date(), 500),
  await clearEndedGraces(trx, new Date(), 500),
  await claimKeysToWarn(trx, new Date(), new Date(Date.now() + 7 * DAY_MS), 500),
  await deleteExpiredSessions(trx, new Date()),
  await deleteExpiredKeys(trx, 1000),
  await pruneStatBuckets(trx, new Date(Date.now() - 8 * DAY_MS), 1000),
  await findStaleQueuedRuns(trx, new Date(), 500),
  await findStaleQueuedMessages(trx, new Date(), 500),
];
