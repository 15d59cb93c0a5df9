import type { Conn } from '../platform/db.js';
import { DAY_MS } from './retention.js';

// The day partitions of the tables that only grow: `<table>_dYYYYMMDD` holds [that day, the next) in UTC.
// Every statement here is DDL or catalog reads; none of them takes a lock that blocks reads or writes of the
// parent for longer than a catalog update: a new day is built beside the table and ATTACHed (SHARE UPDATE
// EXCLUSIVE), an expired one is DETACHed CONCURRENTLY and then dropped on its own.

export const PARTITIONED_TABLES = ['events', 'webhook_deliveries', 'webhook_attempts'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

export const dayStart = (t: Date): Date => new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);
export const partitionName = (table: PartitionedTable, day: Date): string =>
  `${table}_d${day.toISOString().slice(0, 10).replaceAll('-', '')}`;

const NAME = /_d(\d{4})(\d{2})(\d{2})$/;
/** The day a partition name stands for. */
export function dayOf(name: string): Date | null {
  const m = NAME.exec(name);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
}

export interface PartitionInfo {
  name: string;
  day: Date;
  /** A DETACH … CONCURRENTLY that was interrupted: it must be finished with FINALIZE. */
  detachPending: boolean;
}

/** The partitions attached to `table`, oldest first. */
export async function listPartitions(conn: Conn, table: PartitionedTable): Promise<PartitionInfo[]> {
  const { rows } = await conn.raw<{ rows: Array<{ name: string; detach_pending: boolean }> }>(
    `SELECT c.relname AS name, i.inhdetachpending AS detach_pending
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = ?::regclass`,
    [table],
  );
  return rows
    .map((r) => ({ name: r.name, day: dayOf(r.name), detachPending: r.detach_pending }))
    .filter((p): p is PartitionInfo => p.day !== null)
    .sort((a, b) => a.day.getTime() - b.day.getTime());
}

/** Tables named like a partition of `table` that are no longer attached: a drop interrupted after its detach. */
export async function findDetachedPartitions(conn: Conn, table: PartitionedTable): Promise<string[]> {
  const { rows } = await conn.raw<{ rows: Array<{ name: string }> }>(
    `SELECT c.relname AS name FROM pg_class c
      WHERE c.relkind = 'r' AND c.relname LIKE ? AND c.relname ~ '_d[0-9]{8}$'
        AND c.relnamespace = current_schema()::regnamespace
        AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid)`,
    [`${table}\\_d%`],
  );
  return rows.map((r) => r.name);
}

/** Creates the day partition if it is missing: built beside the table, then attached. */
export async function createDayPartition(conn: Conn, table: PartitionedTable, day: Date): Promise<void> {
  const name = partitionName(table, day);
  const next = new Date(day.getTime() + DAY_MS);
  await conn.raw(`CREATE TABLE IF NOT EXISTS ?? (LIKE ?? INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`, [name, table]);
  try {
    // DDL takes no bind parameters; the bounds are ISO strings made here from Dates.
    await conn.raw(
      `ALTER TABLE ?? ATTACH PARTITION ?? FOR VALUES FROM ('${day.toISOString()}') TO ('${next.toISOString()}')`,
      [table, name],
    );
  } catch (err) {
    // Attached already (by another process, or an earlier run that stopped after this step).
    if ((err as { code?: string }).code !== '42P17' && !/already a partition/.test((err as Error).message)) throw err;
  }
}

/**
 * Whether a day of deliveries still has one to send: due (webhook_deliveries_due) or queued behind its ordering
 * key (webhook_deliveries_queued). Every pending delivery that is sent is one or the other: each write that leaves
 * a delivery pending gives it a due time, except an ordered one's, which its key's advance arms. A delivery that
 * waits for its consumer's poll (no due time, no key) does not keep its day: retention bounds it
 * (countWaitingDeliveries).
 */
export async function hasPendingDeliveries(conn: Conn, partition: string): Promise<boolean> {
  const { rows } = await conn.raw<{ rows: Array<{ pending: boolean }> }>(
    `SELECT EXISTS (SELECT 1 FROM ?? WHERE status = 'pending' AND next_attempt_at IS NOT NULL)
         OR EXISTS (SELECT 1 FROM ?? WHERE status = 'pending' AND ordering_key IS NOT NULL) AS pending`,
    [partition, partition],
  );
  return rows[0]!.pending;
}

/**
 * How many of a day's deliveries still wait for a consumer that never polled them (a poll subscription's, pending
 * with no due time and no ordering key): they go with the day, unread (docs/webhook-polling.md#polling-endpoints).
 */
export async function countWaitingDeliveries(conn: Conn, partition: string): Promise<number> {
  const { rows } = await conn.raw<{ rows: Array<{ n: number }> }>(
    `SELECT count(*)::int AS n FROM ?? WHERE status = 'pending' AND next_attempt_at IS NULL AND ordering_key IS NULL`,
    [partition],
  );
  return rows[0]!.n;
}

/** Detaches without blocking the parent's readers and writers; must run outside a transaction. */
export async function detachConcurrently(conn: Conn, table: PartitionedTable, partition: string): Promise<void> {
  await conn.raw(`ALTER TABLE ?? DETACH PARTITION ?? CONCURRENTLY`, [table, partition]);
}

/** Finishes a DETACH … CONCURRENTLY that was interrupted. */
export async function finalizeDetach(conn: Conn, table: PartitionedTable, partition: string): Promise<void> {
  await conn.raw(`ALTER TABLE ?? DETACH PARTITION ?? FINALIZE`, [table, partition]);
}

export async function dropDetached(conn: Conn, partition: string): Promise<void> {
  await conn.raw(`DROP TABLE IF EXISTS ??`, [partition]);
}

/** How a partition's rows and statistics stand, from the cumulative statistics system. */
export interface PartitionStatistics {
  name: string;
  /** Rows inserted, updated or deleted since the partition was last analyzed (by ANALYZE or autovacuum). */
  modifiedSinceAnalyze: number;
  liveRows: number;
  /** pg_class.reltuples as the last analyze or vacuum left it; -1 when it was never analyzed nor vacuumed. */
  estimatedRows: number;
  /** The partition's own storage parameters (autovacuum_analyze_threshold=…). */
  options: string[];
}

export async function findPartitionStatistics(conn: Conn, names: string[]): Promise<PartitionStatistics[]> {
  type Row = { name: string; modified: number; live: number; reltuples: number; options: string[] | null };
  const { rows } = await conn.raw<{ rows: Row[] }>(
    `SELECT c.relname AS name, coalesce(s.n_mod_since_analyze, 0) AS modified, coalesce(s.n_live_tup, 0) AS live,
            c.reltuples, c.reloptions AS options
       FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
      WHERE c.relname = ANY (?) AND c.relnamespace = current_schema()::regnamespace`,
    [names],
  );
  return rows.map((r) => ({
    name: r.name,
    modifiedSinceAnalyze: Number(r.modified),
    liveRows: Number(r.live),
    estimatedRows: Number(r.reltuples),
    options: r.options ?? [],
  }));
}

/**
 * Autoanalyze settings of one partition. ALTER TABLE … SET (storage parameters) takes SHARE UPDATE EXCLUSIVE:
 * reads and writes of the partition go on; only another vacuum, analyze or DDL of it waits.
 */
export async function setAnalyzeSettings(
  conn: Conn,
  partition: string,
  threshold: number,
  scaleFactor: number,
): Promise<void> {
  // DDL takes no bind parameters; both are numbers from the code.
  const rule = [
    `autovacuum_analyze_threshold = ${Math.trunc(threshold)}`,
    `autovacuum_analyze_scale_factor = ${Number(scaleFactor)}`,
  ];
  await conn.raw(`ALTER TABLE ?? SET (${rule.join(', ')})`, [partition]);
}

/** Samples the partition's rows into fresh statistics; a cached plan that reads it is re-planned on its next use. */
export async function analyzePartition(conn: Conn, partition: string): Promise<void> {
  await conn.raw(`ANALYZE ??`, [partition]);
}
