import type { Context } from 'koa';
import { isStorableText } from '../../platform/text.js';
import { drainLimit, readBody, unread } from '../read-body.js';

// The login and consent forms post application/x-www-form-urlencoded, a few fields. Anything else is refused
// with a clear page, keeping no more than `maxBytes`: a wrong type 415, too large 413, bytes that
// are not UTF-8 or fields with NUL or broken surrogates 400.

export class FormError extends Error {
  constructor(
    readonly status: 400 | 403 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

export type FormFields = Map<string, string[]>;

export async function readForm(ctx: Context, maxBytes: number): Promise<FormFields> {
  const declared = Number(ctx.get('content-length') || 0);
  const refusal = !ctx.is('application/x-www-form-urlencoded')
    ? new FormError(415, 'This form must be sent as application/x-www-form-urlencoded.')
    : null;
  // The shared reader, so that a refused form is drained and its connection carries the next request.
  const read = declared > drainLimit(maxBytes) ? unread : await readBody(ctx.req, refusal ? 0 : maxBytes);
  if (!read.complete) ctx.set('Connection', 'close');
  if (refusal) throw refusal;
  if (read.aborted) throw new FormError(400, 'The form ended before it was complete.');
  if (read.body === null) throw new FormError(413, `This form is limited to ${maxBytes} bytes.`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.body);
  } catch {
    throw new FormError(400, 'The form is not valid UTF-8.');
  }
  // URLSearchParams silently turns a broken %-escape into U+FFFD; refuse those instead of guessing.
  if (/%(?![0-9A-Fa-f]{2})/.test(text)) throw new FormError(400, 'The form is malformed.');
  const fields: FormFields = new Map();
  for (const [name, value] of new URLSearchParams(text)) {
    if (!isStorableText(name) || !isStorableText(value) || value.includes('\uFFFD'))
      throw new FormError(400, 'The form holds characters that are not allowed.');
    fields.set(name, [...(fields.get(name) ?? []), value]);
  }
  return fields;
}

/** A field that must appear exactly once. */
export function single(fields: FormFields, name: string, maxLength: number): string {
  const values = fields.get(name);
  if (!values || values.length !== 1) throw new FormError(400, `The form field "${name}" is missing or repeated.`);
  if (values[0]!.length > maxLength) throw new FormError(400, `The form field "${name}" is too long.`);
  return values[0]!;
}
