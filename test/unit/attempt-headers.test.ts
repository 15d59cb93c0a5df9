import { describe, expect, it } from 'vitest';
import {
  MAX_RESPONSE_HEADER_CHARS,
  MAX_RESPONSE_HEADERS,
  TRUNCATED_KEY,
  responseHeadersJson,
} from '../../src/delivery/attempt-headers.js';

// The bounds of the receiver's headers an attempt keeps (docs/adr/0068-attempt-headers.md), at their edges.

const kept = (headers: Record<string, string>) => JSON.parse(responseHeadersJson(headers)) as Record<string, string>;
const numbered = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-${i}`, 'v']));

describe('responseHeadersJson', () => {
  it('keeps a small answer as it came, set-cookie redacted, text made storable', () => {
    expect(kept({ 'content-type': 'text/plain', 'set-cookie': 'sid=abc, other=def', 'x-odd': 'a\u0000b' })).toEqual({
      'content-type': 'text/plain',
      'set-cookie': '[redacted]',
      'x-odd': 'a\uFFFDb',
    });
  });

  it('keeps 50 headers without a marker, and drops the 51st with one', () => {
    expect(Object.keys(kept(numbered(MAX_RESPONSE_HEADERS)))).toHaveLength(MAX_RESPONSE_HEADERS);
    const over = kept(numbered(MAX_RESPONSE_HEADERS + 1));
    expect(over[`x-${MAX_RESPONSE_HEADERS - 1}`]).toBe('v');
    expect(over[`x-${MAX_RESPONSE_HEADERS}`]).toBeUndefined();
    expect(over[TRUNCATED_KEY]).toMatch(/^1 header\(s\) dropped:/);
  });

  it('cuts the value that crosses 4096 characters and drops what follows', () => {
    const exact = kept({ a: 'x'.repeat(MAX_RESPONSE_HEADER_CHARS - 1) });
    expect(exact[TRUNCATED_KEY]).toBeUndefined();
    const over = kept({ a: 'x'.repeat(100), b: 'y'.repeat(MAX_RESPONSE_HEADER_CHARS), c: 'z' });
    expect(over.b).toHaveLength(MAX_RESPONSE_HEADER_CHARS - 100 - 2);
    expect(over.c).toBeUndefined();
    expect(over[TRUNCATED_KEY]).toMatch(/^1 header\(s\) dropped, one value cut/);
  });
});
