import { AppError } from './errors.js';

/** True when a Postgres error is a unique violation, optionally of one named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

interface DatabaseError {
  code: string;
  severity: string;
  constraint?: string;
  routine?: string;
}

/**
 * A Postgres error that only input can cause: a data exception (class 22: text it cannot store, a value out of
 * range, a malformed uuid or timestamp) or an integrity violation (class 23). Validation should have refused such
 * input first; this is the last line of defence behind it.
 */
export function isRefusedInput(err: unknown): err is DatabaseError {
  const e = err as Partial<DatabaseError> | null;
  return typeof e?.code === 'string' && typeof e.severity === 'string' && /^2[23][0-9A-Z]{3}$/.test(e.code);
}

/**
 * The answer to input the database refused: 409 for a unique violation (a state conflict), 400 otherwise.
 * Never the database's own message, which can quote SQL and values.
 */
export function refusedInputError(err: DatabaseError): AppError {
  if (err.code === '23505') return new AppError('conflict', 'This conflicts with a record that already exists');
  const message = 'a value in this request cannot be stored';
  return new AppError('validation_error', `Invalid request: ${message}`, { fields: [{ field: '(request)', message }] });
}

/** What a log line says about it: enough to find the missing rule, nothing of the values. */
export const describeRefusedInput = (err: DatabaseError) => ({
  pgCode: err.code,
  constraint: err.constraint,
  routine: err.routine,
});

/**
 * Postgres rolled the transaction back to settle a conflict with a concurrent one (class 40: a deadlock, a
 * serialization failure): nothing of it was written, and the same request sent again normally succeeds. Two
 * transactions that each emit events of two ordering keys to an ordered subscription, in opposite orders, can
 * deadlock on the keys' rows (docs/adr/0073-ordering-commit-order.md).
 */
export function isTransactionRolledBack(err: unknown): boolean {
  const e = err as Partial<DatabaseError> | null;
  return typeof e?.code === 'string' && typeof e.severity === 'string' && /^40[0-9A-Z]{3}$/.test(e.code);
}
