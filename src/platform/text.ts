// Text Postgres can store. A `text` or `jsonb` value may not hold U+0000 (22021 / 22P05), and a lone UTF-16
// surrogate either turns into U+FFFD on the way out (text) or is refused (a `\udc00` escape in jsonb, 22P02).
// Text from outside is judged here, once: a client's text is refused (isStorableText, used by the shared zod
// building blocks), a remote party's text (a receiver's answer, an error message) is made storable.

const REPLACEMENT = '\uFFFD';

/** Why a client's text was refused, in the words of a validation error. */
export const UNSTORABLE_TEXT = 'must not contain NUL (U+0000) or unpaired UTF-16 surrogates';

/** True when `s` can be stored as Postgres text or inside jsonb unchanged. */
export function isStorableText(s: string): boolean {
  return !s.includes('\u0000') && s.isWellFormed();
}

/**
 * `s` with NUL and lone surrogates replaced by U+FFFD and cut to at most `maxChars` UTF-16 units, never in the
 * middle of a surrogate pair. Invalid UTF-8 has already become U+FFFD when the bytes were decoded.
 */
export function toStorableText(s: string, maxChars = Infinity): string {
  const cut = s.length > maxChars ? s.slice(0, maxChars) : s;
  // A pair cut in half leaves a lone high surrogate at the end: drop it rather than store a replacement.
  const whole = cut.length < s.length && /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
  return whole.replaceAll('\u0000', REPLACEMENT).toWellFormed();
}

/** The same for a value that may be absent. */
export const toStorableTextOrNull = (s: string | null | undefined, maxChars = Infinity): string | null =>
  s == null ? null : toStorableText(s, maxChars);
