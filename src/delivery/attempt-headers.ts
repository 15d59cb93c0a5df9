import { toStorableText } from '../platform/text.js';

// The headers an attempt keeps (docs/adr/0068-attempt-headers.md): the request's as sent (ours, a handful, all
// safe to show: signatures are HMACs, never the secret) and the receiver's answer, bounded and with its cookies
// redacted. Each set is turned into JSON text once, here, and stored as jsonb by the attempt's own statement.

/** The receiver's headers an attempt keeps: at most this many… */
export const MAX_RESPONSE_HEADERS = 50;
/** …and at most this many characters of names and values together. */
export const MAX_RESPONSE_HEADER_CHARS = 4096;
/** The key of the entry that says what was left out; never a header name (`[` is not a token character). */
export const TRUNCATED_KEY = '[truncated]';
/** What a set-cookie value is shown as: a session the receiver hands out is nobody else's to read. */
export const REDACTED = '[redacted]';

/** The JSON text of the headers the worker sent. */
export const requestHeadersJson = (headers: Record<string, string>): string => JSON.stringify(headers);

/**
 * The JSON text of a receiver's headers, in the order received: set-cookie redacted, values made storable, and
 * past the bounds the last kept value cut and the rest dropped, with one entry saying how many.
 */
export function responseHeadersJson(headers: Record<string, string>): string {
  const kept: Record<string, string> = {};
  let count = 0;
  let chars = 0;
  let dropped = 0;
  let cut = false;
  for (const [name, raw] of Object.entries(headers)) {
    const room = MAX_RESPONSE_HEADER_CHARS - chars - name.length;
    if (dropped > 0 || count === MAX_RESPONSE_HEADERS || room <= 0) {
      dropped++;
      continue;
    }
    const value = name === 'set-cookie' ? REDACTED : raw;
    const stored = toStorableText(value, room);
    if (value.length > room) cut = true;
    kept[name] = stored;
    count++;
    chars += name.length + stored.length;
  }
  if (dropped > 0 || cut) {
    kept[TRUNCATED_KEY] =
      `${dropped} header(s) dropped${cut ? ', one value cut' : ''}: an attempt keeps at most ` +
      `${MAX_RESPONSE_HEADERS} headers and ${MAX_RESPONSE_HEADER_CHARS} characters of names and values`;
  }
  return JSON.stringify(kept);
}
