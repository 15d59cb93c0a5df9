import type { Knex } from 'knex';
import { uuidV7Time } from '../../platform/ids.js';

// Every statement on webhook_deliveries and webhook_attempts. A delivery is a small state machine whose row is
// the authority (docs/webhook-retries.md#the-delivery-state-machine has the table):
//
//   pending ──success──▶ succeeded        pending ──retry scheduled──▶ pending (job_seq + 1, due later)
//   pending ──last retry failed──▶ exhausted    pending ──410 / subscription stopped──▶ failed
//   succeeded | failed | exhausted ──reopen (redeliver, recoverSince)──▶ pending (job_seq + 1, due now)
//
// Each transition is one function whose WHERE names the state it leaves and the job_seq of the job that may
// make it, so a late or duplicated job can never move a delivery back. An attempt that arrives for a delivery
// that has moved on is still recorded (it happened) but changes neither the delivery nor the subscription.
//
// The three tables are partitioned by day on created_at. A delivery's created_at is its event's, and its id is
// a UUIDv7 stamped with that same millisecond, so every statement here names (id, created_at) and reaches one
// partition. Reads for the API are bounded by `since`, the retention cutoff: older rows answer as absent.

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'exhausted';

export interface DeliveryRow {
  id: string;
  account_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  round_attempts: number;
  job_seq: number;
  /** Set on the deliveries of an ordered subscription (docs/webhook-retries.md#ordered-delivery); null: unordered. */
  ordering_key: string | null;
  /**
   * The delivery's place in its key's order (commit order); for a pulled kind (a poll), in its subscription's
   * (the order it was written in); null otherwise.
   */
  ordering_seq: string | null;
  next_attempt_at: Date | null;
  last_error: string | null;
  last_response_status: number | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What names one delivery row: its id and the partition key. */
export interface DeliveryRef {
  id: string;
  created_at: Date;
}

/** A delivery and the number of the job that may make its next attempt. */
export interface ScheduledDelivery extends DeliveryRef {
  job_seq: number;
  /** What its job's name shows in bull-board (src/delivery/schedule.ts). */
  event: string;
  webhook_id: string;
  /** Its ordering key, null when its subscription is unordered (a partition may route by it). */
  ordering_key: string | null;
}

/** The columns of an ScheduledDelivery, for the statements that return one. */
export const SCHEDULED = ['id', 'created_at', 'job_seq', 'event', 'webhook_id', 'ordering_key'];

/**
 * Narrows a query on webhook_deliveries (alias `d` or none) to one delivery by id, with the UUIDv7's time, so that
 * one partition is read. An id that is no UUIDv7 names no delivery.
 */
export function whereDelivery(q: Knex.QueryBuilder, id: string, column = 'id'): Knex.QueryBuilder {
  const at = uuidV7Time(id);
  return at ? q.where(column, id).where(column.replace(/\bid$/, 'created_at'), at) : q.whereRaw('false');
}
