import { describe, expect, it } from 'vitest';
import { isStorableText, toStorableText, toStorableTextOrNull } from '../../src/platform/text.js';

describe('storable text', () => {
  it('refuses NUL and lone surrogates, accepts everything else', () => {
    expect(isStorableText('plain, ünïcødé and 😀')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('\udc00')).toBe(false);
    expect(isStorableText('x\ud83d')).toBe(false);
  });

  it('replaces what Postgres refuses and caps the length without splitting a pair', () => {
    expect(toStorableText('a\u0000b\udc00c')).toBe('a\uFFFDb\uFFFDc');
    expect(toStorableText('ab😀', 3)).toBe('ab');
    expect(toStorableText('ab😀', 4)).toBe('ab😀');
    expect(toStorableText('x'.repeat(10), 4)).toBe('xxxx');
    expect(toStorableTextOrNull(null)).toBeNull();
    expect(isStorableText(toStorableText('\u0000\ud800\udfff\udc00'))).toBe(true);
  });
});
