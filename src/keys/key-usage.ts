import type { Db } from '../platform/db.js';
import type { Logger } from '../platform/logger.js';
import type { Background } from '../platform/background.js';
import { now } from '../platform/clock.js';

// Each authenticated request's key outcome, per key per hour, without a write per request: the runtime counts in a
// Map and adds the counts in one upsert a second (FLUSH_MS), off the request path. A runtime that closes flushes
// first; a process killed loses at most that second of counts, never a request. Figures are observability: a
// batch Postgres refuses is logged and dropped.

/** What a key's request came to: valid, or the code of the refusal (the error codes the API answers with). */
export const KEY_OUTCOMES = [
  'valid',
  'rate_limited',
  'spend_cap_exceeded',
  'key_expired',
  'key_deactivated',
  'ip_not_allowed',
  'insufficient_scope',
  'agent_forbidden',
  'admin_session_required',
] as const;
export type KeyOutcome = (typeof KEY_OUTCOMES)[number];
const OUTCOMES: ReadonlySet<string> = new Set(KEY_OUTCOMES);
export const isKeyOutcome = (code: string): code is KeyOutcome => OUTCOMES.has(code);

export const FLUSH_MS = 1000;
const HOUR_MS = 3600_000;

export interface KeyUsageCounter {
  count(accountId: string, keyId: string, outcome: KeyOutcome): void;
  /** Adds what is counted so far (closeDeps calls it; tests may too). */
  flush(): Promise<void>;
}

interface Count {
  accountId: string;
  keyId: string;
  hour: number;
  outcome: KeyOutcome;
  n: number;
}

export function createKeyUsageCounter(db: Db, logger: Logger, background: Background): KeyUsageCounter {
  let counts = new Map<string, Count>();
  let timer: NodeJS.Timeout | undefined;

  const write = async (batch: Count[]) => {
    if (!batch.length) return;
    await db.raw(
      `INSERT INTO api_key_usage (account_id, key_id, hour, outcome, n)
       SELECT * FROM unnest(?::text[], ?::text[], ?::timestamptz[], ?::text[], ?::bigint[])
       ON CONFLICT (key_id, hour, outcome) DO UPDATE SET n = api_key_usage.n + excluded.n`,
      [
        batch.map((c) => c.accountId),
        batch.map((c) => c.keyId),
        batch.map((c) => new Date(c.hour)),
        batch.map((c) => c.outcome),
        batch.map((c) => c.n),
      ],
    );
  };

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = [...counts.values()];
    counts = new Map();
    try {
      await write(batch);
    } catch (err) {
      logger.warn({ err: (err as Error).message, rows: batch.length }, 'key usage not recorded');
    }
  };

  return {
    count(accountId, keyId, outcome) {
      const at = now().getTime();
      const hour = at - (at % HOUR_MS);
      const id = `${keyId} ${hour} ${outcome}`;
      const c = counts.get(id);
      if (c) c.n++;
      else counts.set(id, { accountId, keyId, hour, outcome, n: 1 });
      if (!timer) {
        timer = setTimeout(() => background.add(flush(), 'key usage'), FLUSH_MS);
        timer.unref();
      }
    },
    flush,
  };
}
