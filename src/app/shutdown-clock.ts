import type { Logger } from '../platform/logger.js';

/**
 * The clock of a shutdown: the returned deadline comes at 80 % of SHUTDOWN_TIMEOUT_MS, by when a stop gives up
 * waiting; at 90 % the process exits whatever is still open, so that it is gone within the timeout even when the
 * stop hangs. The exit timer does not itself keep the process alive.
 */
export function startShutdownClock(timeoutMs: number, logger: Logger): Promise<void> {
  setTimeout(
    () => {
      logger.error({ timeoutMs }, 'shutdown did not finish within SHUTDOWN_TIMEOUT_MS: exiting');
      process.exit(1);
    },
    Math.floor(timeoutMs * 0.9),
  ).unref();
  return new Promise<void>((resolve) => setTimeout(resolve, Math.floor(timeoutMs * 0.8)));
}
