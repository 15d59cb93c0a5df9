import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

// Where a loop keeps its cursor between runs. A loop saves only after onEvents resolved, so a crash between the
// two replays the batch (at-least-once) rather than losing it.

export interface CursorStore {
  load(key: string): Promise<string | null>;
  /** `null` forgets the cursor: the event type has no replay, the next run starts from now. */
  save(key: string, cursor: string | null): Promise<void>;
}

/** The key a subscription's cursor is stored under: its event name and canonical arguments. */
export function cursorKey(name: string, args: Record<string, unknown> = {}): string {
  return `${name} ${canonicalJson(args)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Cursors in memory: they last as long as the process. */
export function memoryCursorStore(): CursorStore {
  const cursors = new Map<string, string>();
  return {
    load: async (key) => cursors.get(key) ?? null,
    save: async (key, cursor) => {
      if (cursor === null) cursors.delete(key);
      else cursors.set(key, cursor);
    },
  };
}

/**
 * Cursors in one JSON file, `{ key: cursor }`. Each save writes a temporary file and renames it over the old one,
 * so a crash mid-write leaves the previous cursors, never half a file. Saves of one store run one after another.
 */
export function fileCursorStore(path: string): CursorStore {
  let queue: Promise<unknown> = Promise.resolve();
  const read = async (): Promise<Record<string, string>> => {
    try {
      const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
  };
  const write = async (key: string, cursor: string | null) => {
    const all = await read();
    if (cursor === null) delete all[key];
    else all[key] = cursor;
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  };
  return {
    load: async (key) => {
      await queue;
      return (await read())[key] ?? null;
    },
    save: (key, cursor) => {
      const next = queue.then(() => write(key, cursor));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
