import { AppError } from '../platform/errors.js';
import { checkFilterAgainstEvents } from './filter-check.js';
import { readFilter, type Filter } from './filter-grammar.js';

/**
 * A filter must fit the event types it filters (docs/webhook-filters.md): otherwise a 400 validation_error in the
 * contract's shape names each place in the filter (`filter.<keys>`) and what is wrong there, and nothing changes.
 */
export function requireFilterFits(filter: Filter | null, events: string[]): void {
  if (filter === null) return;
  const { conditions, issues } = readFilter(filter);
  const all = [...issues, ...checkFilterAgainstEvents(conditions, events)];
  if (all.length === 0) return;
  const fields = all.map((i) => ({ field: ['filter', ...i.at].join('.'), message: i.message }));
  throw new AppError(
    'validation_error',
    `Invalid request: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`,
    {
      fields,
    },
  );
}
