import type { Conn } from '../platform/db.js';

// Account-wide counts. Each resource is one grouped count over its own table; tables that a deployment does
// not have yet (migrations landing in parallel) count as zero instead of failing the whole answer.

interface CountSpec {
  key: string;
  table: string;
  /** Soft-deleted rows (this column set) are not counted. */
  liveColumn?: string;
  /** Breakdowns: output field → column, with the values always shown (zero when absent). */
  groups?: Record<string, { column: string; values: string[] }>;
}

const SPECS: CountSpec[] = [
  { key: 'agents', table: 'agents', groups: { byStatus: { column: 'status', values: ['active', 'paused'] } } },
  { key: 'contacts', table: 'contacts' },
  {
    key: 'inboxes',
    table: 'inboxes',
    liveColumn: 'deleted_at',
    groups: { byChannel: { column: 'channel', values: ['email', 'sms'] } },
  },
  { key: 'conversations', table: 'conversations' },
  {
    key: 'messages',
    table: 'messages',
    groups: {
      byDirection: { column: 'direction', values: ['inbound', 'outbound'] },
      byStatus: { column: 'status', values: ['received', 'draft', 'queued', 'sent', 'failed'] },
      byChannel: { column: 'channel', values: ['email', 'sms', 'chat'] },
    },
  },
  {
    key: 'runs',
    table: 'runs',
    groups: { byStatus: { column: 'status', values: ['queued', 'running', 'succeeded', 'failed'] } },
  },
  {
    key: 'webhooks',
    table: 'webhooks',
    liveColumn: 'deleted_at',
    groups: { byStatus: { column: 'status', values: ['active', 'disabled'] } },
  },
  {
    key: 'apiKeys',
    table: 'api_keys',
    groups: {
      byStatus: { column: 'status', values: ['active', 'deactivated', 'expired'] },
      byType: { column: 'key_type', values: ['account', 'agent'] },
    },
  },
  { key: 'domains', table: 'domains', groups: { byStatus: { column: 'status', values: ['pending', 'verified'] } } },
  {
    key: 'integrations',
    table: 'integrations',
    groups: { byProvider: { column: 'provider', values: ['smtp', 'sms-http'] } },
  },
];

export type ResourceCounts = { total: number } & Record<string, number | Record<string, number>>;

async function existingTables(conn: Conn, tables: string[]): Promise<Set<string>> {
  const { rows } = await conn.raw<{ rows: Array<{ name: string }> }>(
    'SELECT t AS name FROM unnest(?::text[]) AS t WHERE to_regclass(t) IS NOT NULL',
    [tables],
  );
  return new Set(rows.map((r) => r.name));
}

async function countOne(conn: Conn, accountId: string, spec: CountSpec, exists: boolean): Promise<ResourceCounts> {
  const groups = Object.entries(spec.groups ?? {});
  const out: ResourceCounts = { total: 0 };
  for (const [field, g] of groups) out[field] = Object.fromEntries(g.values.map((v) => [v, 0]));
  if (!exists) return out;

  const columns = groups.map(([, g]) => g.column);
  const query = conn(spec.table)
    .where({ account_id: accountId })
    .count<Array<Record<string, string | number>>>('* as count');
  if (spec.liveColumn) query.whereNull(spec.liveColumn);
  if (columns.length) query.select(columns).groupBy(columns);
  for (const row of await query) {
    const n = Number(row.count);
    out.total += n;
    for (const [field, g] of groups) {
      const bucket = out[field] as Record<string, number>;
      const value = String(row[g.column]);
      bucket[value] = (bucket[value] ?? 0) + n;
    }
  }
  return out;
}

export async function countAccountResources(conn: Conn, accountId: string): Promise<Record<string, ResourceCounts>> {
  const exists = await existingTables(
    conn,
    SPECS.map((s) => s.table),
  );
  const counts = await Promise.all(SPECS.map((s) => countOne(conn, accountId, s, exists.has(s.table))));
  return Object.fromEntries(SPECS.map((s, i) => [s.key, counts[i]!]));
}
