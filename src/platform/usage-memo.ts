// "Last used" to the minute without a write per request: a runtime remembers when it last wrote each credential's
// usage and writes at most once a minute per credential, off the request path. The UPDATE itself is conditional
// too (last_used_at older than a minute), so N instances cost at most N no-op statements a minute. A memo only
// throttles a bookkeeping write; it never decides whether a credential is accepted.

const RESOLUTION_MS = 60_000;
/** Past this many ids the memo starts again: at worst one more write per credential, never unbounded memory. */
const MAX_ENTRIES = 50_000;

/** When one runtime last wrote each credential's usage (API keys and OAuth grants each have one). */
export interface UsageMemo {
  /** True when a write for `id` is due at `at` (ms), which it then counts as written. */
  due(id: string, at: number): boolean;
  /** The write for `id` failed: the next use tries again. */
  forget(id: string): void;
}

export function createUsageMemo(): UsageMemo {
  const lastWrites = new Map<string, number>();
  return {
    due(id, at) {
      const last = lastWrites.get(id);
      if (last !== undefined && at - last < RESOLUTION_MS) return false;
      if (lastWrites.size >= MAX_ENTRIES) lastWrites.clear();
      lastWrites.set(id, at);
      return true;
    },
    forget: (id) => void lastWrites.delete(id),
  };
}
