import type { Context } from 'koa';
import { isStorableText } from '../../platform/text.js';

// The login and consent forms post application/x-www-form-urlencoded, a few fields. Anything else is refused
// with a clear page before the service reads more than `maxBytes`: a wrong type 415, too large 413, bytes that
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
  if (!ctx.is('application/x-www-form-urlencoded')) {
    throw new FormError(415, 'This form must be sent as application/x-www-form-urlencoded.');
  }
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxBytes) throw new FormError(413, `This form is limited to ${maxBytes} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new FormError(413, `This form is limited to ${maxBytes} bytes.`);
    chunks.push(chunk as Buffer);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
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
