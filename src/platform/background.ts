import type { Logger } from './logger.js';

// Work a caller is not held for, kept so that the runtime can wait for it before it closes its connections. What
// goes here must already be safe to lose (a advance the sweep repeats, figures that are observability only):
// keeping it spares a restart the sweep's wait and the last figures
// (docs/adr/0082-the-response-does-not-wait-for-the-queue.md).

export interface Background {
  /** Runs on without the caller; a rejection is logged, never thrown at anyone. */
  add(work: Promise<unknown>, what: string): void;
  /** Resolves once everything added before the call, and anything those add meanwhile, has settled. */
  settled(): Promise<void>;
}

export function createBackground(logger: Logger): Background {
  const running = new Set<Promise<void>>();
  return {
    add(work, what) {
      const tracked = work.then(
        () => undefined,
        (err: unknown) => logger.error({ err }, `${what} failed`),
      );
      running.add(tracked);
      void tracked.finally(() => running.delete(tracked));
    },
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
