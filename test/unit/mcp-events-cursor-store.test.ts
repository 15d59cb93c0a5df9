import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cursorKey, fileCursorStore } from '@switchboard/mcp-events';
import { afterAll, describe, expect, it } from 'vitest';

// The cursor store of @switchboard/mcp-events: one key per subscription whatever the order of its arguments, and a
// file that a later process reads back.

const dir = mkdtempSync(join(tmpdir(), 'mcp-events-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cursorKey', () => {
  it('is the same for the same arguments in any order, and differs for other arguments', () => {
    const a = cursorKey('message.received', { inbox: 'inb_1', filter: { from: 'a', to: 'b' } });
    const b = cursorKey('message.received', { filter: { to: 'b', from: 'a' }, inbox: 'inb_1' });
    expect(a).toBe(b);
    expect(cursorKey('message.received', { inbox: 'inb_2' })).not.toBe(
      cursorKey('message.received', { inbox: 'inb_1' }),
    );
    expect(cursorKey('message.received')).toBe('message.received {}');
  });
});

describe('fileCursorStore', () => {
  it('keeps every save of parallel calls, reads them back in a new store, and forgets a null', async () => {
    const path = join(dir, 'nested', 'cursors.json');
    const store = fileCursorStore(path);
    await Promise.all(['a', 'b', 'c'].map((k, i) => store.save(k, `c${i}`)));
    const reopened = fileCursorStore(path);
    expect(await reopened.load('a')).toBe('c0');
    expect(await reopened.load('c')).toBe('c2');
    expect(await reopened.load('missing')).toBeNull();
    await reopened.save('b', null);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ a: 'c0', c: 'c2' });
  });
});
