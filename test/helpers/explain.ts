import pg from 'pg';
import type { Db } from '../../src/platform/db.js';
import { transaction, type Trx } from '../../src/platform/transaction.js';

// Plans of the statements the service really sends. A statement is captured from knex's query event while the
// service code runs it (in a transaction rolled back afterwards), then explained the way Postgres would run it:
// with its parameters (a custom plan, as every unnamed statement gets) and, for the named prepared statements
// (preparedRaw), also as the generic plan Postgres may settle on after five executions.

export interface Captured {
  sql: string;
  bindings: unknown[];
  /** Named prepared statements may be run with a generic plan. */
  named: boolean;
}

export async function captureStatements(db: Db, run: (trx: Trx) => Promise<unknown>): Promise<Captured[]> {
  const captured: Captured[] = [];
  const listener = (q: { sql: string; bindings?: unknown[]; options?: { name?: string } }) => {
    if (/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(q.sql)) return;
    captured.push({ sql: q.sql, bindings: q.bindings ?? [], named: Boolean(q.options?.name) });
  };
  db.on('query', listener);
  try {
    await inRolledBackTransaction(db, run);
  } finally {
    db.off('query', listener);
  }
  return captured;
}

class RolledBack extends Error {}

/** Runs `run` in a transaction that is rolled back afterwards. */
async function inRolledBackTransaction(db: Db, run: (trx: Trx) => Promise<unknown>): Promise<void> {
  await transaction(db, async (trx) => {
    await run(trx);
    throw new RolledBack();
  }).catch((err: unknown) => {
    if (!(err instanceof RolledBack)) throw err;
  });
}

export interface SequentialRead {
  relname: string;
  seq_scan: number;
  seq_tup_read: number;
}

/**
 * What the statements of `run` read sequentially of `relations` as Postgres ran them, on one of db's connections
 * (in a transaction rolled back afterwards): only the relations of which they read at least a row.
 */
export async function sequentialReads(
  db: Db,
  relations: string[],
  run: (trx: Trx) => Promise<unknown>,
): Promise<SequentialRead[]> {
  const counters = async (trx: Trx) => {
    const { rows } = await trx.raw<{ rows: SequentialRead[] }>(
      `SELECT relname, seq_scan, seq_tup_read FROM pg_stat_xact_user_tables WHERE relname = ANY (?)`,
      [relations],
    );
    return new Map(rows.map((r) => [r.relname, r]));
  };
  let reads: SequentialRead[] = [];
  await inRolledBackTransaction(db, async (trx) => {
    // The counters of this backend's transaction (and those it has not reported yet): the difference is run's.
    const before = await counters(trx);
    await run(trx);
    reads = [...(await counters(trx)).values()]
      .map((r) => {
        const was = before.get(r.relname);
        const seqTupRead = r.seq_tup_read - (was?.seq_tup_read ?? 0);
        return { relname: r.relname, seq_scan: r.seq_scan - (was?.seq_scan ?? 0), seq_tup_read: seqTupRead };
      })
      .filter((r) => r.seq_tup_read > 0);
  });
  return reads;
}

/** A value as an SQL literal, for EXECUTE's arguments (EXECUTE takes no bind parameters of its own). */
function literal(client: pg.Client, v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return client.escapeLiteral(v.toISOString());
  if (Array.isArray(v)) {
    const items = v.map((x) =>
      x === null || x === undefined
        ? 'NULL'
        : `"${String(x instanceof Date ? x.toISOString() : x).replace(/["\\]/g, '\\$&')}"`,
    );
    return client.escapeLiteral(`{${items.join(',')}}`);
  }
  return client.escapeLiteral(typeof v === 'object' ? JSON.stringify(v) : String(v));
}

type PlanNode = Record<string, unknown>;

export interface ScanNode {
  nodeType: string;
  relation: string;
}

function scans(plan: PlanNode, out: ScanNode[] = []): ScanNode[] {
  const relation = plan['Relation Name'];
  if (typeof relation === 'string') out.push({ nodeType: String(plan['Node Type']), relation });
  for (const child of (plan.Plans as PlanNode[] | undefined) ?? []) scans(child, out);
  return out;
}

let counter = 0;

/** EXPLAIN (`options`) of the statement with its parameters: a custom plan, as every unnamed statement gets. */
async function explainCustom(client: pg.Client, s: Captured, options: string): Promise<PlanNode> {
  const res = await client.query(`EXPLAIN (${options}, FORMAT JSON) ${s.sql}`, s.bindings as unknown[]);
  return res.rows[0]['QUERY PLAN'][0].Plan;
}

/**
 * EXPLAIN (`options`) of a named statement's generic plan, the one Postgres may keep for it after five executions.
 * With ANALYZE the statement runs: the caller holds the transaction that undoes it.
 */
async function explainGeneric(client: pg.Client, s: Captured, options: string): Promise<PlanNode> {
  const name = `plan_check_${++counter}`;
  await client.query(`PREPARE ${name} AS ${s.sql}`);
  await client.query('SET plan_cache_mode = force_generic_plan');
  try {
    const args = s.bindings.map((b) => literal(client, b)).join(', ');
    const res = await client.query(`EXPLAIN (${options}, FORMAT JSON) EXECUTE ${name}${args ? `(${args})` : ''}`);
    return res.rows[0]['QUERY PLAN'][0].Plan;
  } finally {
    await client.query('RESET plan_cache_mode');
    await client.query(`DEALLOCATE ${name}`);
  }
}

/** The scan nodes of the statement's custom plan, and of its generic plan when it is a named statement. */
export async function explain(
  client: pg.Client,
  s: Captured,
): Promise<{ custom: ScanNode[]; generic: ScanNode[] | null }> {
  const custom = scans(await explainCustom(client, s, 'COSTS'));
  const generic = s.named ? scans(await explainGeneric(client, s, 'COSTS')) : null;
  return { custom, generic };
}

/** The relations a SELECT actually read when run (EXPLAIN ANALYZE): subplans pruned at run time never execute. */
export async function scannedRelations(client: pg.Client, s: Captured): Promise<string[]> {
  const plan = await explainCustom(client, s, 'ANALYZE');
  const read: string[] = [];
  const walk = (plan: PlanNode) => {
    if (typeof plan['Relation Name'] === 'string' && Number(plan['Actual Loops'] ?? 0) > 0)
      read.push(plan['Relation Name']);
    for (const child of (plan.Plans as PlanNode[] | undefined) ?? []) walk(child);
  };
  walk(plan);
  return [...new Set(read)];
}

/**
 * The pages of `table`'s partitions a statement's scans touched when run (EXPLAIN (ANALYZE, BUFFERS), in a
 * transaction rolled back), index pages included. A named statement runs with its generic plan, the one Postgres
 * keeps.
 */
export async function pagesTouched(client: pg.Client, s: Captured, table: string): Promise<number> {
  let touched = 0;
  const walk = (plan: PlanNode) => {
    const relation = plan['Relation Name'];
    // A scan's buffers include its children's (a bitmap heap scan's index scan names no relation).
    if (typeof relation === 'string' && relation.startsWith(`${table}_d`))
      touched += Number(plan['Shared Hit Blocks'] ?? 0) + Number(plan['Shared Read Blocks'] ?? 0);
    else for (const child of (plan.Plans as PlanNode[] | undefined) ?? []) walk(child);
  };
  await client.query('BEGIN');
  try {
    const explainAs = s.named ? explainGeneric : explainCustom;
    walk(await explainAs(client, s, 'ANALYZE, BUFFERS'));
  } finally {
    await client.query('ROLLBACK');
  }
  return touched;
}
