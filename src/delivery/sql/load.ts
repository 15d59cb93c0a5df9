import { prepare, runPrepared, startupBound, type Conn } from '../../platform/db.js';
import { uuidV7Time } from '../../platform/ids.js';
import type { DestinationKind } from '../kinds/registry.js';
import type { DeliveryRow } from './rows.js';

// ---- the worker's read ----

/** A delivery with what sending it needs from its subscription and its event. */
export interface SendContext extends Pick<
  DeliveryRow,
  | 'id'
  | 'created_at'
  | 'account_id'
  | 'webhook_id'
  | 'event_id'
  | 'event'
  | 'status'
  | 'attempts'
  | 'round_attempts'
  | 'job_seq'
  | 'ordering_key'
> {
  url: string;
  webhook_kind: DestinationKind;
  webhook_status: 'active' | 'disabled';
  webhook_deleted_at: Date | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  legacy_secret_sealed: string | null;
  /** The subscription's throttle (deliveries per second), null when unthrottled. */
  rate_limit_per_second: number | null;
  /** A sealed destination URL (a broker's; null for a kind whose URL is public) and the kind's own settings. */
  broker_url_sealed: string | null;
  settings: Record<string, unknown>;
  inbox_id: string | null;
  message_id: string | null;
  payload: Record<string, unknown>;
  event_created_at: Date;
  /** An MCP Events webhook subscription's derived id (its body is the EventOccurrence); null for the others. */
  mcp_subscription_id: string | null;
  /** An MCP subscription's granted TTL (null: no expiry, and for the others). */
  webhook_expires_at: Date | null;
  /**
   * Whether an MCP subscription's principal still holds (its key active, its OAuth grant not revoked); a CASE, so
   * that no other subscription's load ever runs the check.
   */
  principal_live: boolean;
}

const SEND_CONTEXT = `SELECT d.id, d.created_at, d.account_id, d.webhook_id, d.event_id, d.event, d.status, d.attempts, d.round_attempts, d.job_seq, d.ordering_key,
            w.url, w.kind AS webhook_kind, w.status AS webhook_status, w.deleted_at AS webhook_deleted_at, w.secret_sealed,
            w.previous_secret_sealed, w.previous_secret_expires_at, w.legacy_secret_sealed, w.rate_limit_per_second,
            w.broker_url_sealed, w.settings,
            e.inbox_id, e.message_id, e.payload, e.created_at AS event_created_at,
            w.mcp_subscription_id, w.expires_at AS webhook_expires_at,
            CASE WHEN w.mcp_principal IS NULL THEN true
                 ELSE sb_mcp_principal_live(w.account_id, w.mcp_principal) END AS principal_live`;

/** The earliest and latest of a batch's delivery times (null, null for none): the bounds of its day partitions. */
export function spanOf(times: Date[]): [Date | null, Date | null] {
  if (times.length === 0) return [null, null];
  const ms = times.map((t) => t.getTime());
  return [new Date(Math.min(...ms)), new Date(Math.max(...ms))];
}

/**
 * `alias`.created_at between a batch's earliest and latest (the parameters `first`, `last`, from spanOf): only the
 * day partitions from one to the other are scanned (startupBound).
 */
export const createdBetween = (alias: string, first: string, last: string) =>
  `${alias}.created_at BETWEEN ${startupBound(first)} AND ${startupBound(last)}`;

const LOAD_SEND_CONTEXTS = prepare<SendContext>(
  'load_send_contexts',
  `${SEND_CONTEXT}
     FROM unnest($1::uuid[], $2::timestamptz[]) AS x(id, created_at)
     CROSS JOIN LATERAL (SELECT * FROM webhook_deliveries d
                          WHERE d.id = x.id AND d.created_at = x.created_at
                            AND ${createdBetween('d', '$3', '$4')} LIMIT 1) d
     JOIN webhooks w ON w.id = d.webhook_id
     CROSS JOIN LATERAL (SELECT * FROM events e
                          WHERE e.id = d.event_id AND e.created_at = d.created_at
                            AND ${createdBetween('e', '$3', '$4')} LIMIT 1) e`,
  { seqScan: false },
);

/**
 * Deliveries with their subscription and event, in one round trip; the answer is aligned with `deliveryIds`.
 * A delivery shares its event's created_at, which names the event's partition too; every delivery id is a
 * UUIDv7 stamped with it, and an id that is none names no delivery.
 *
 * Each delivery and its event are looked up by primary key in a LATERAL … LIMIT 1 (the key is unique, so the
 * limit changes no answer): a subquery with a LIMIT is not flattened into a join, so the plan is one probe per
 * id, and planned without sequential scans (src/platform/db.ts, runPrepared) the probe is the primary key's. As a plain join, a batch of 200 on a day partition not yet analyzed was planned as a hash
 * join over the whole of today's events (docs/plans.md#the-per-delivery-load).
 */
export async function loadSendContexts(conn: Conn, deliveryIds: string[]): Promise<Array<SendContext | undefined>> {
  const times = deliveryIds.map(uuidV7Time);
  const known = times.filter((t): t is Date => t !== null);
  const rows = await runPrepared(conn, LOAD_SEND_CONTEXTS, [
    deliveryIds.filter((_id, i) => times[i]),
    known,
    ...spanOf(known),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return deliveryIds.map((id) => byId.get(id));
}
