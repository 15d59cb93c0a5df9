// Waiting that an AbortSignal cuts short, and the reconnect backoff every loop shares.

/** The wait between two attempts of a loop; tests pass one that records what was asked. */
export type Delay = (ms: number, signal: AbortSignal) => Promise<void>;

/** Resolves after `ms`, or at once when `signal` aborts (never rejects: the loop checks the signal itself). */
export const delay: Delay = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export interface BackoffOptions {
  /** The first retry's wait. Default 500 ms. */
  initialMs?: number;
  /** The longest wait. Default 30 s. */
  maxMs?: number;
}

/** The wait before retry `attempt` (0-based): doubling from initialMs up to maxMs. */
export function backoffMs(attempt: number, options: BackoffOptions = {}): number {
  const initial = options.initialMs ?? 500;
  return Math.min(options.maxMs ?? 30_000, initial * 2 ** Math.min(attempt, 30));
}

/** A signal that never aborts, for a loop run without one. */
export const neverAborted = (): AbortSignal => new AbortController().signal;
