import { isStorableText, UNSTORABLE_TEXT } from './text.js';

// Untrusted JSON is judged without recursion: a value nested thousands of levels deep must be refused, not
// overflow the stack of the code that judges it (JSON.stringify, a recursive walk, a zod schema).

/** The deepest nesting of arrays and objects a request body or a free-form JSON value may have. */
export const MAX_JSON_DEPTH = 64;

/**
 * Scans raw JSON text for nesting deeper than `maxDepth`, before it is parsed. Brackets inside strings do not
 * count. Malformed text is left for JSON.parse to refuse. One pass over the bytes, no recursion.
 */
export function exceedsJsonDepth(raw: Buffer, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (inString) {
      if (byte === 0x5c)
        i++; // backslash: the next byte is escaped, whatever it is
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (byte === 0x5d || byte === 0x7d) {
      depth--;
    }
  }
  return false;
}

export type JsonInspection = { bytes: number } | { problem: string; path: Array<string | number> };

const utf8Bytes = (s: string) => Buffer.byteLength(JSON.stringify(s));

/**
 * Walks a parsed JSON value iteratively and returns either the first problem (with the path to it) or the exact
 * UTF-8 size of its JSON.stringify form, computed piece by piece (a string's own JSON form is never deep).
 */
export function inspectJson(root: unknown, maxDepth = MAX_JSON_DEPTH): JsonInspection {
  const stack: Array<{ value: unknown; path: Array<string | number>; depth: number }> = [
    { value: root, path: [], depth: 0 },
  ];
  let bytes = 0;
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (value === null) bytes += 4;
    else if (typeof value === 'boolean') bytes += value ? 4 : 5;
    else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { problem: 'numbers must be finite', path };
      bytes += String(value).length;
    } else if (typeof value === 'string') {
      if (!isStorableText(value)) return { problem: UNSTORABLE_TEXT, path };
      bytes += utf8Bytes(value);
    } else if (typeof value === 'object') {
      if (depth >= maxDepth) return { problem: `must not be nested deeper than ${maxDepth} levels`, path };
      if (Array.isArray(value)) {
        bytes += 2 + Math.max(0, value.length - 1); // brackets and commas
        for (let i = value.length - 1; i >= 0; i--)
          stack.push({ value: value[i], path: [...path, i], depth: depth + 1 });
      } else {
        const keys = Object.keys(value);
        bytes += 2 + Math.max(0, keys.length - 1) + keys.length; // braces, commas and colons
        for (const key of keys) {
          if (key === '__proto__') return { problem: 'the key __proto__ is not allowed', path: [...path, key] };
          if (!isStorableText(key)) return { problem: `keys ${UNSTORABLE_TEXT}`, path: [...path, key] };
          bytes += utf8Bytes(key);
          stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key], depth: depth + 1 });
        }
      }
    } else {
      return { problem: 'must be JSON (strings, numbers, booleans, null, arrays and objects)', path };
    }
  }
  return { bytes };
}
