import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/platform/pagination.js';

describe('decodeCursor', () => {
  const forged = (t: string, id: string) => Buffer.from(JSON.stringify({ t, id })).toString('base64url');

  it('takes back what paginate gave out', () => {
    const at = new Date('2026-11-23T10:11:12.345Z');
    expect(decodeCursor(encodeCursor(at, 'agt_abc'), 'agents')).toEqual({ t: at.toISOString(), id: 'agt_abc' });
    expect(decodeCursor(encodeCursor(at, '7d4e3a52-3d0c-4c45-9d4a-2b1f0f6f6a11'), 'webhook_deliveries').t).toBe(
      at.toISOString(),
    );
  });

  it('refuses another list, a timestamp Postgres could refuse, and anything that is not a cursor', () => {
    const bad = [
      forged('2026-11-23T10:11:12.345Z', 'ct_abc'),
      forged('2026-11-23T10:11:12.345Z', 'agt_abc\u0000'),
      ...[
        '2020',
        '0',
        '-1',
        '2000-02-30T00:00:00.000Z',
        '2021-13-01T00:00:00.000Z',
        '+275760-09-13T00:00:00.000Z',
        '0000-01-01T00:00:00.000Z',
        '1969-12-31T23:59:59.999Z',
        '2020-01-01T00:00:00Z',
        '2020-01-01T00:00:00.000+01:00',
      ].map((t) => forged(t, 'agt_abc')),
      'nonsense',
      '',
      Buffer.from('null').toString('base64url'),
      Buffer.from('[1]').toString('base64url'),
      Buffer.from('{"t":1,"id":2}').toString('base64url'),
    ];
    for (const cursor of bad)
      expect(() => decodeCursor(cursor, 'agents'), cursor).toThrow(
        expect.objectContaining({ code: 'validation_error' }),
      );
  });
});
