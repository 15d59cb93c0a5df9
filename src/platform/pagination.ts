import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError } from './errors.js';
import { text } from './input.js';

// Keyset pagination over (created_at, id), newest first. The cursor is opaque to clients.

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

function decodeCursor(cursor: string): { t: string; id: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { t?: unknown; id?: unknown };
    if (typeof value.t === 'string' && typeof value.id === 'string' && !Number.isNaN(Date.parse(value.t))) {
      return { t: value.t, id: value.id };
    }
  } catch {
    // fall through
  }
  throw new AppError('validation_error', 'Invalid request: cursor: not a cursor this API returned', {
    fields: [{ field: 'cursor', message: 'not a cursor this API returned' }],
  });
}

/** Applies the page to a query on `table` and returns rows plus paging info. */
export async function paginate<Row extends { id: string; created_at: Date }>(
  query: Knex.QueryBuilder,
  table: string,
  page: PageQuery,
): Promise<Page<Row>> {
  if (page.cursor) {
    const { t, id } = decodeCursor(page.cursor);
    query.whereRaw(`(??, ??) < (?::timestamptz, ?)`, [`${table}.created_at`, `${table}.id`, t, id]);
  }
  const rows = (await query
    .orderBy([{ column: `${table}.created_at`, order: 'desc' }, { column: `${table}.id`, order: 'desc' }])
    .limit(page.limit + 1)) as Row[];
  const hasMore = rows.length > page.limit;
  const data = hasMore ? rows.slice(0, page.limit) : rows;
  const last = data[data.length - 1];
  const nextCursor =
    hasMore && last
      ? Buffer.from(JSON.stringify({ t: new Date(last.created_at).toISOString(), id: last.id })).toString('base64url')
      : null;
  return { data, hasMore, nextCursor };
}

export const mapPage = <A, B>(page: Page<A>, fn: (a: A) => B): Page<B> => ({ ...page, data: page.data.map(fn) });
