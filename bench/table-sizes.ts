import type { Db } from '../src/platform/db.js';
import { PARTITIONED_TABLES } from '../src/maintenance/partitions.repository.js';

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
    const { rows: [r] } = await db.raw(
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
