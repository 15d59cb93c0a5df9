import { retainedSince } from '../../maintenance/retention.js';
import { now } from '../../platform/clock.js';
import type { EventsContext, Subscription } from './context.js';
import { decodeCursor, type Position } from './cursor.js';
import { headOfLog, readLog, skippedBefore, type LogBatch } from './log.js';

// Following one subscription's log: where it starts (its cursor, or now), reading a batch, and waiting for the
// next commit of the account, woken through Redis (wakeups.ts), not by reading Postgres on a timer.

/**
 * After a wakeup whose read found nothing, the log is read again after these delays: behind a long writer of the
 * account the reader's barrier may not have moved yet (log.ts).
 */
const SETTLE_MS = [50, 150, 400, 1000, 2000];

export interface Follower {
  position: Position;
  /** The first answer's `truncated`: the cursor was older than the replay floor and events were skipped. */
  truncated: boolean;
  read(limit: number): Promise<LogBatch>;
  /** Waits up to `ms` for a commit of the account (or a settle delay); true when woken. */
  wait(ms: number): Promise<boolean>;
  stop(): void;
}

export async function follow(ctx: EventsContext, sub: Subscription, cursor: string | null, maxAgeMs?: number) {
  const { deps } = ctx;
  const accountId = ctx.audience.principal.accountId;
  let pending = false;
  let wakeUp: (() => void) | null = null;
  // Subscribed before the first read, so that a commit between that read and the wait is not missed.
  const unlisten = await deps.eventWakeups.listen(accountId, () => {
    pending = true;
    wakeUp?.();
  });
  try {
    const floorOf = () => {
      const retained = retainedSince(deps.config).getTime();
      return new Date(maxAgeMs === undefined ? retained : Math.max(retained, now().getTime() - maxAgeMs));
    };
    const base = { accountId, type: sub.event.name, filter: sub.filter };
    let position: Position;
    let truncated = false;
    if (cursor === null) {
      position = await headOfLog(deps.db, accountId);
    } else {
      position = decodeCursor(cursor, sub.binding);
      const floor = floorOf();
      truncated =
        position.at < retainedSince(deps.config).getTime() ||
        (await skippedBefore(deps.db, { ...base, after: position, floor }));
    }
    let settle = -1;
    const follower: Follower = {
      position,
      truncated,
      async read(limit) {
        const batch = await readLog(deps.db, { ...base, after: follower.position, floor: floorOf(), limit });
        follower.position = batch.next;
        if (batch.events.length > 0) settle = -1;
        return batch;
      },
      wait(ms) {
        if (settle >= 0 && settle < SETTLE_MS.length) ms = Math.min(ms, SETTLE_MS[settle++]!);
        if (pending || ctx.signal.aborted) {
          pending = false;
          settle = 0;
          return Promise.resolve(true);
        }
        return new Promise<boolean>((resolve) => {
          const done = (woken: boolean) => {
            clearTimeout(timer);
            ctx.signal.removeEventListener('abort', onAbort);
            wakeUp = null;
            if (woken) {
              pending = false;
              settle = 0;
            }
            resolve(woken);
          };
          const onAbort = () => done(false);
          const timer = setTimeout(() => done(false), Math.max(0, ms));
          wakeUp = () => done(true);
          ctx.signal.addEventListener('abort', onAbort, { once: true });
        });
      },
      stop: unlisten,
    };
    return follower;
  } catch (err) {
    unlisten();
    throw err;
  }
}
