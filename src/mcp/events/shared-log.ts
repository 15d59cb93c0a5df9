import type { Db } from '../../platform/db.js';
import type { Position } from './cursor.js';
import { headOfLog, readLog, type LogBatch, type LogRead } from './log.js';

// One web process's reads of the MCP events log, shared. A commit wakes every poll and stream of its account at
// once, and most of them stand at the same position of the same subscription: concurrent reads that are the same
// read go to Postgres once and each caller takes the answer, so 100 streams woken by one commit cost one read,
// not 100 (docs/performance.md#mcp-events). A caller woken while a read it joined was running reads again after
// it (follow.ts), so sharing an answer that began before a commit loses nothing.

export interface EventLog {
  read(read: LogRead): Promise<LogBatch>;
  /** The position after everything committed now (log.ts headOfLog), shared by the account's callers. */
  head(accountId: string): Promise<Position>;
}

/** Replay floors are kept to the second, so that callers who asked a few milliseconds apart share their read. */
const toSecond = (t: Date): Date => new Date(Math.floor(t.getTime() / 1000) * 1000);

export function createEventLog(db: Db): EventLog {
  const running = new Map<string, Promise<unknown>>();
  const shared = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const joined = running.get(key);
    if (joined) return joined as Promise<T>;
    const started = work().finally(() => running.delete(key));
    running.set(key, started);
    return started;
  };
  return {
    read(read) {
      const floor = toSecond(read.floor);
      const { accountId, type, filter, after, limit } = read;
      const key = JSON.stringify(['read', accountId, type, filter, after.seq, floor.getTime(), limit]);
      return shared(key, () => readLog(db, { ...read, floor }));
    },
    head: (accountId) => shared(JSON.stringify(['head', accountId]), () => headOfLog(db, accountId)),
  };
}
