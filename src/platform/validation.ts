import { z } from 'zod';
import { AppError } from './errors.js';

/** Parses input with a zod schema; failure becomes a 400 validation_error listing each field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw validationError(result.error);
}

export function validationError(error: z.ZodError): AppError {
  const fields = error.issues.map((i) => ({ field: i.path.join('.') || '(body)', message: i.message }));
  const summary = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
  return new AppError('validation_error', `Invalid request: ${summary}`, { fields });
}
