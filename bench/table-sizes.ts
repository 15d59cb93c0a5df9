import type { Db } from '../src/platform/db.js';
import { dayStart, PARTITIONED_TABLES } from '../src/maintenance/partitions.repository.js';
import { DAY_MS } from '../src/maintenance/retention.js';
import type { TrafficSeed } from '../test/helpers/seed-traffic.js';

// Bytes per row of the partitioned tables, indexes included: the sizes of the day partitions that hold rows
// (after ANALYZE; the empty days ahead are a fixed few hundred kB, not a per-row cost) divided by `rows`.

export interface TableSize {
  rows: number;
  /** Heap, TOAST, free-space and visibility maps. */
  tableBytesPerRow: number;
  indexBytesPerRow: number;
  totalBytesPerRow: number;
  totalMB: number;
}

export async function tableSizes(db: Db, rows: number): Promise<Record<string, TableSize>> {
  const out: Record<string, TableSize> = {};
  for (const table of PARTITIONED_TABLES) {
    const {
      rows: [r],
    } = await db.raw(
      `SELECT sum(pg_table_size(c.oid))::bigint AS table_bytes, sum(pg_indexes_size(c.oid))::bigint AS index_bytes
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = ?::regclass AND c.reltuples > 0`,
      [table],
    );
    const tableBytes = Number(r.table_bytes);
    const indexBytes = Number(r.index_bytes);
    out[table] = {
      rows,
      tableBytesPerRow: Math.round(tableBytes / rows),
      indexBytesPerRow: Math.round(indexBytes / rows),
      totalBytesPerRow: Math.round((tableBytes + indexBytes) / rows),
      totalMB: Math.round((tableBytes + indexBytes) / 2 ** 20),
    };
  }
  return out;
}

/**
 * The traffic both sizing benches seed: `rows` per table from `days` days ago to a minute ago, 2,000 accounts and
 * 5,000 subscriptions (skewed), message payloads, retries pending only in the last day and due hours from now
 * (so an expired day holds none, and nothing is due).
 */
export function retainedTraffic(rows: number, days: number, now = Date.now()): TrafficSeed {
  return {
    rows,
    from: new Date(dayStart(new Date(now)).getTime() - days * DAY_MS),
    to: new Date(now - 60_000),
    accounts: 2000,
    webhooks: 5000,
    skewed: true,
    payload: 'message',
    pendingSince: new Date(now - DAY_MS),
    pendingDueInMs: 6 * 3600_000,
  };
}
