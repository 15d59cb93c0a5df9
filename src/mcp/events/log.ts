import type { Db } from '../../platform/db.js';
import type { Position } from './cursor.js';

// The MCP events log: an account's rows of the `events` table in commit order. Every row records the transaction
// that wrote it (`tx`); a read takes only rows whose transaction is older than its own snapshot's xmin, so every
// transaction it could see has ended, and orders them by (tx, id). A transaction still open when a reader passes
// has an xid at or above that xmin, so it is read later, never behind a position already returned: a long
// transaction delays the log, it cannot make it lose an event (docs/adr/0091-mcp-events.md).

export interface LogRead {
  accountId: string;
  type: string;
  /** The subscription's filter (ADR 0087 grammar), payload equalities; {} matches every event of the type. */
  filter: Record<string, string>;
  after: Position;
  /** Events older than this are not returned (maxAgeMs, retention). */
  floor: Date;
  limit: number;
}

export interface LoggedEvent {
  eventId: string;
  name: string;
  timestamp: string;
  data: Record<string, unknown>;
  /** The position after this event. */
  position: Position;
}

export interface LogBatch {
  events: LoggedEvent[];
  /** Where the next read starts: after the last event when more wait, else after everything now readable. */
  next: Position;
  hasMore: boolean;
}

interface Row {
  id: string | null;
  type: string | null;
  payload: Record<string, unknown> | null;
  created_at: Date | null;
  tx: string | null;
  xmin: string;
  at: Date;
}

// One statement: the snapshot's xmin and the rows below it are read under the same snapshot. A left join, so
// that a read finding nothing still answers xmin, the quiet position.
const READ = (after: string) => `
  WITH s AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin, now() AS at)
  SELECT e.id, e.type, e.payload, e.created_at, e.tx::text AS tx, s.xmin::text AS xmin, s.at
    FROM s LEFT JOIN LATERAL (
      SELECT id, type, payload, created_at, tx FROM events
       WHERE account_id = ? AND type = ? AND tx < s.xmin AND created_at >= ?
         AND ${after}
         AND sb_filter_matches(sb_filter_plan(?::jsonb), payload)
       ORDER BY tx, id
       LIMIT ?
    ) e ON true`;

// Whether any event of the type was skipped between the position and the floor (the first answer's `truncated`).
const SKIPPED = (after: string) => `
  SELECT 1 FROM events
   WHERE account_id = ? AND type = ? AND created_at < ?
     AND ${after}
     AND tx < pg_snapshot_xmin(pg_current_snapshot())
     AND sb_filter_matches(sb_filter_plan(?::jsonb), payload)
   LIMIT 1`;

/** The condition "after the position", and its bindings: a quiet position is a bound on tx alone. */
const afterPosition = (p: Position): [string, string[]] =>
  p.id === null ? ['tx >= ?::xid8', [p.tx]] : ['(tx, id) > (?::xid8, ?::text)', [p.tx, p.id]];

export async function readLog(db: Db, read: LogRead): Promise<LogBatch> {
  const { accountId, type, filter, after, floor, limit } = read;
  const filterJson = JSON.stringify(filter);
  const [condition, bindings] = afterPosition(after);
  const { rows } = await db.raw<{ rows: Row[] }>(READ(condition), [
    accountId,
    type,
    floor,
    ...bindings,
    filterJson,
    limit + 1,
  ]);
  const found = rows.filter((r) => r.id !== null).slice(0, limit);
  const events = found.map((r) => ({
    eventId: r.id!,
    name: r.type!,
    timestamp: r.created_at!.toISOString(),
    data: r.payload!,
    position: { tx: r.tx!, id: r.id!, at: r.created_at!.getTime() },
  }));
  const hasMore = rows.filter((r) => r.id !== null).length > limit;
  const quiet: Position = { tx: rows[0]!.xmin, id: null, at: rows[0]!.at.getTime() };
  // With more to read, the next read starts after the last returned event; otherwise after all this snapshot saw.
  const next = hasMore ? events[events.length - 1]!.position : quiet;
  return { events, next, hasMore };
}

/** The position after everything committed now: where a subscription with no cursor starts. */
export async function headOfLog(db: Db): Promise<Position> {
  const { rows } = await db.raw<{ rows: Array<{ xmin: string; at: Date }> }>(
    `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin, now() AS at`,
  );
  return { tx: rows[0]!.xmin, id: null, at: rows[0]!.at.getTime() };
}

/** Did a floor later than the position skip events of the subscription? */
export async function skippedBefore(db: Db, read: Omit<LogRead, 'limit'>): Promise<boolean> {
  const { accountId, type, filter, after, floor } = read;
  if (after.at >= floor.getTime()) return false;
  const [condition, bindings] = afterPosition(after);
  const { rows } = await db.raw<{ rows: unknown[] }>(SKIPPED(condition), [
    accountId,
    type,
    floor,
    ...bindings,
    JSON.stringify(filter),
  ]);
  return rows.length > 0;
}
