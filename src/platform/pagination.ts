import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError } from './errors.js';
import { hasIdShape, text, type IdKind } from './input.js';

// Keyset pagination over (created_at, id), newest first. The cursor is opaque to clients: base64url of
// {"t": <created_at as ISO>, "id": <row id>}. It is not signed, so it is judged in full before it reaches SQL.

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: text().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * The id kind of every paginated table. A cursor's id must have this shape, so a cursor taken from another
 * list (whose ids have another prefix) is refused here instead of by Postgres (22P02 on a uuid column).
 */
const TABLE_IDS = {
  activity: 'act',
  agents: 'agt',
  api_keys: 'key',
  audit_log: 'log',
  contacts: 'ct',
  conversations: 'conv',
  domains: 'dom',
  events: 'evt',
  inboxes: 'inb',
  messages: 'msg',
  notifications: 'ntf',
  oauth_grants: 'ogr',
  portal_links: 'plk',
  users: 'usr',
  webhook_attempts: 'att',
  webhook_deliveries: 'uuid',
  webhooks: 'wh',
} as const satisfies Record<string, IdKind>;
export type PagedTable = keyof typeof TABLE_IDS;

// The exact form toISOString() writes, between 1970 and 9999: anything Postgres could refuse (year 0, "2020",
// "-1", 30 February, six-digit years) fails this or the round trip below.
const CURSOR_TIME = /^(19[7-9]\d|[2-9]\d{3})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A 400 naming `cursor`: a cursor the list did not return (`list` says which list: "this list", …). */
export const badCursor = (list = 'this list') =>
  new AppError('validation_error', `Invalid request: cursor: not a cursor ${list} returned`, {
    fields: [{ field: 'cursor', message: `not a cursor ${list} returned` }],
  });

/** A cursor's fields: base64url of a JSON object, or a 400 naming `cursor` (`list` as in badCursor). */
export function cursorFields(cursor: string, list?: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor(list);
  }
  if (typeof value !== 'object' || value === null) throw badCursor(list);
  return value as Record<string, unknown>;
}

export function decodeCursor(cursor: string, table: PagedTable): { t: string; id: string } {
  const { t, id } = cursorFields(cursor);
  if (typeof t !== 'string' || typeof id !== 'string' || !hasIdShape(TABLE_IDS[table], id)) throw badCursor();
  const time = new Date(t);
  if (!CURSOR_TIME.test(t) || Number.isNaN(time.getTime()) || time.toISOString() !== t) throw badCursor();
  return { t, id };
}

export const encodeCursor = (createdAt: Date, id: string): string =>
  Buffer.from(JSON.stringify({ t: new Date(createdAt).toISOString(), id })).toString('base64url');

/** Applies the page to a query on `table` and returns rows plus paging info. */
export async function paginate<Row extends { id: string; created_at: Date }>(
  query: Knex.QueryBuilder,
  table: PagedTable,
  page: PageQuery,
): Promise<Page<Row>> {
  if (page.cursor) {
    const { t, id } = decodeCursor(page.cursor, table);
    query.whereRaw(`(??, ??) < (?::timestamptz, ?)`, [`${table}.created_at`, `${table}.id`, t, id]);
  }
  const rows = (await query
    .orderBy([
      { column: `${table}.created_at`, order: 'desc' },
      { column: `${table}.id`, order: 'desc' },
    ])
    .limit(page.limit + 1)) as Row[];
  const hasMore = rows.length > page.limit;
  const data = hasMore ? rows.slice(0, page.limit) : rows;
  const last = data[data.length - 1];
  const nextCursor = hasMore && last ? encodeCursor(last.created_at, last.id) : null;
  return { data, hasMore, nextCursor };
}

export const mapPage = <A, B>(page: Page<A>, fn: (a: A) => B): Page<B> => ({ ...page, data: page.data.map(fn) });
