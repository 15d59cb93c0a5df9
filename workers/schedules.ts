import type { JobDefinition } from '../src/platform/queues.js';
import { jobs } from '../src/platform/queues.js';

/** Repeating maintenance jobs, upserted with BullMQ job schedulers at worker start (idempotent). */
export const schedules: Array<{ id: string; job: JobDefinition; everyMs: number }> = [
  { id: 'sweep-expired-sessions', job: jobs.sweepExpiredSessions, everyMs: 15 * 60_000 },
  { id: 'sweep-expired-keys', job: jobs.sweepExpiredKeys, everyMs: 60_000 },
  { id: 'relay-outbox', job: jobs.relayOutbox, everyMs: 30_000 },
  { id: 'requeue-stuck-work', job: jobs.requeueStuckWork, everyMs: 60_000 },
];
