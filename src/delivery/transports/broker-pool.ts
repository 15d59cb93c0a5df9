import type { Sealer } from '../../platform/crypto.js';

// One connection per broker per worker process, shared by every subscription that names the same URL. A
// connection is opened at its first send, shared while it opens (concurrent sends wait for the same one), and
// forgotten when it fails or closes, so the next send opens a new one: a broker that restarted is reconnected by
// the next attempt, and one that is down costs each attempt its own bounded wait, never a blocked worker.

export interface Pooled {
  /** Ends the connection; the pool forgets it first. */
  close(): Promise<void>;
}

export interface BrokerPool<C extends Pooled> {
  /** The connection to `url`, opened by `open` unless one is open or opening; `lost` is its caller's to call. */
  get(url: string, open: (lost: () => void) => Promise<C>): Promise<C>;
  close(): Promise<void>;
}

export function createBrokerPool<C extends Pooled>(): BrokerPool<C> {
  // Keyed by the URL itself: the process holds it opened anyway (UrlRing), and the map is never logged or shown.
  const entries = new Map<string, Promise<C>>();
  return {
    get(url, open) {
      const key = url;
      let entry = entries.get(key);
      if (!entry) {
        const lost = () => {
          if (entries.get(key) === entry) entries.delete(key);
        };
        entry = open(lost);
        entries.set(key, entry);
        entry.catch(lost);
      }
      return entry;
    },
    async close() {
      const all = [...entries.values()];
      entries.clear();
      await Promise.all(all.map((p) => p.then((c) => c.close()).catch(() => undefined)));
    },
  };
}

/** Broker URLs from their sealed form, each opened once (a changed URL is sealed anew, so a new entry). */
export interface UrlRing {
  open(sealed: string): string;
}

export function createUrlRing(sealer: Sealer, maxEntries = 10_000): UrlRing {
  const urls = new Map<string, string>();
  return {
    open(sealed) {
      let url = urls.get(sealed);
      if (url === undefined) {
        url = sealer.open(sealed);
        if (urls.size >= maxEntries) urls.clear();
        urls.set(sealed, url);
      }
      return url;
    },
  };
}

/** `work`, or a `BrokerTimeout` after `ms`: a slow broker costs an attempt, never a blocked worker. */
export async function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BrokerTimeout(`the broker did not ${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export class BrokerTimeout extends Error {
  readonly code = 'SB_BROKER_TIMEOUT';
}
