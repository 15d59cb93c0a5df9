import type { Db } from '../../platform/db.js';
import type { Position } from './cursor.js';

// The MCP events log: an account's rows of the `events` table in commit order, by `log_seq`. Each number is taken
// under the account's log lock held shared until its transaction ends (migrations/…_add_event_commit_order.ts);
// a reader's barrier is the sequence's last value read while holding that lock exclusively, so every event of
// the account numbered up to the barrier has committed or rolled back, and reading (cursor, barrier] never leaves
// one behind a position returned (docs/adr/0091-mcp-events.md). The exclusive lock is held for one statement and
// waits at most LOCK_WAIT: behind a long writer the reader keeps its old barrier and reads again later.

const LOCK_WAIT = '200ms';

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
  /** Where the next read starts: after the last event when more wait, else after the barrier. */
  next: Position;
  hasMore: boolean;
}

interface Row {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
  log_seq: string;
}

/** The barrier: every event of the account numbered up to it is settled; null when the lock was not had in time. */
async function barrierOf(db: Db, accountId: string): Promise<{ seq: string; at: number } | null> {
  try {
    return await db.transaction(async (trx) => {
      await trx.raw(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`);
      const { rows } = await trx.raw<{ rows: Array<{ seq: string; at: Date }> }>(
        `SELECT pg_advisory_xact_lock(91, hashtext(?)), (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM event_log_seq)::text AS seq, now() AS at`,
        [accountId],
      );
      return { seq: rows[0]!.seq, at: rows[0]!.at.getTime() };
    });
  } catch (err) {
    if ((err as { code?: string }).code === '55P03') return null; // lock_not_available: a long writer
    throw err;
  }
}

const READ = (filtered: boolean) => `
  SELECT id, type, payload, created_at, log_seq::text AS log_seq FROM events
   WHERE account_id = ? AND type = ? AND log_seq > ? AND log_seq <= ? AND created_at >= ?
     ${filtered ? 'AND sb_filter_matches(sb_filter_plan(?::jsonb), payload)' : ''}
   ORDER BY log_seq
   LIMIT ?`;

export async function readLog(db: Db, read: LogRead): Promise<LogBatch> {
  const { accountId, type, filter, after, floor, limit } = read;
  const barrier = await barrierOf(db, accountId);
  if (!barrier || BigInt(barrier.seq) <= BigInt(after.seq)) return { events: [], next: after, hasMore: false };
  const filtered = Object.keys(filter).length > 0;
  const bindings = [accountId, type, after.seq, barrier.seq, floor, ...(filtered ? [JSON.stringify(filter)] : [])];
  const { rows } = await db.raw<{ rows: Row[] }>(READ(filtered), [...bindings, limit + 1]);
  const events = rows.slice(0, limit).map((r) => ({
    eventId: r.id,
    name: r.type,
    timestamp: r.created_at.toISOString(),
    data: r.payload,
    position: { seq: r.log_seq, at: r.created_at.getTime() },
  }));
  const hasMore = rows.length > limit;
  const next = hasMore ? events[events.length - 1]!.position : { seq: barrier.seq, at: barrier.at };
  return { events, next, hasMore };
}

/** The position after everything committed now: where a subscription with no cursor starts. */
export async function headOfLog(db: Db, accountId: string): Promise<Position> {
  for (let tries = 1; ; tries++) {
    const barrier = await barrierOf(db, accountId);
    if (barrier) return barrier;
    if (tries === 25) throw new Error('the events log lock stayed busy');
  }
}

/** Did a floor later than the position skip events of the subscription? */
export async function skippedBefore(db: Db, read: Omit<LogRead, 'limit'>): Promise<boolean> {
  const { accountId, type, filter, after, floor } = read;
  if (after.at >= floor.getTime()) return false;
  const filtered = Object.keys(filter).length > 0;
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `SELECT 1 FROM events WHERE account_id = ? AND type = ? AND log_seq > ? AND created_at < ?
      ${filtered ? 'AND sb_filter_matches(sb_filter_plan(?::jsonb), payload)' : ''} LIMIT 1`,
    [accountId, type, after.seq, floor, ...(filtered ? [JSON.stringify(filter)] : [])],
  );
  return rows.length > 0;
}
