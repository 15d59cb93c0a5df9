import type { Knex } from 'knex';

// Timestamps are stored with millisecond precision so that API timestamps and paging cursors round-trip exactly.
export const ts = (t: Knex.CreateTableBuilder, name: string) => t.timestamp(name, { useTz: true, precision: 3 });

export function createdAt(knex: Knex, t: Knex.CreateTableBuilder) {
  return ts(t, 'created_at').notNullable().defaultTo(knex.raw('now()'));
}

export function updatedAt(knex: Knex, t: Knex.CreateTableBuilder) {
  return ts(t, 'updated_at').notNullable().defaultTo(knex.raw('now()'));
}
