import { findUndispatched } from '../src/events/events.repository.js';
import { relayEvents } from '../src/events/outbox.js';
import { jobs } from '../src/platform/queues.js';
import { defineProcessor } from './processor.js';

/** Events older than this with no fan-out enqueued are taken to have missed the after-commit hand-off. */
export const RELAY_AFTER_MS = 2000;
const BATCH = 500;

export const relayOutboxProcessor = defineProcessor({
  job: jobs.relayOutbox,
  async process(deps) {
    let relayed = 0;
    let previousFirst: string | undefined;
    // Several batches per run, so a long Redis outage drains in one sweep; stops when a batch finds nothing,
    // or finds the same rows again (the hand-off failed: Redis is still away; the next run tries again).
    for (let i = 0; i < 20; i++) {
      const ids = await findUndispatched(deps.db, new Date(Date.now() - RELAY_AFTER_MS), BATCH);
      if (ids.length === 0 || ids[0] === previousFirst) break;
      previousFirst = ids[0];
      await relayEvents(deps, ids);
      relayed += ids.length;
      if (ids.length < BATCH) break;
    }
    if (relayed) deps.logger.info({ relayed }, 'outbox events relayed by the sweep');
    return { relayed };
  },
});
