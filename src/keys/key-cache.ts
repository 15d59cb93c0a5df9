import type { Deps } from '../app/deps.js';
import { findKeyBySecretHash, type KeyRow } from './keys.repository.js';
import { createCoalescer, type Coalesced } from '../platform/coalescer.js';
import type { RedisClient } from '../platform/redis.js';
import { now } from '../platform/clock.js';
import { limitChecker, type LimitCheck, type NamedLimit } from './named-limits.js';

// A per-instance cache of key rows that can never outlive a deactivate, delete, rotate or edit, on any instance.
//
// Every request reads a per-secret "epoch" from Redis (far cheaper than a Postgres round trip) and uses
// a cached row only if it was loaded under that same epoch. Every lifecycle change, inside its transaction:
//   1. locks the key row (SELECT … FOR UPDATE),
//   2. INCRs the epochs of the row's current and previous secret hashes (a Redis failure rolls the change back),
//   3. changes the row and commits.
// A reader loads a row only after reading the epoch, and with FOR SHARE, so it either read the epoch before
// step 2 (its entry is stale-tagged and the next request reloads) or it blocks behind the lock until the commit
// and reads the new row. Hence a request that starts after a change's response never uses a pre-change row.
// Epoch reads are batched per event-loop turn (createKeyCache below), each still sent after its request arrived,
// so the argument above holds unchanged. If Redis cannot be read, the cache is bypassed and the database answers.
// Entries also expire after a minute (also below the epoch keys' TTL), which covers rows changed outside the API
// (e.g. an agent deleted with ON DELETE CASCADE).

export interface ResolvedKeyRow extends KeyRow {
  via_previous: boolean;
  /** The named limits of a per-agent key's agent, shared by all its keys (null for account keys). */
  agent_rate_limits: NamedLimit[] | null;
}

interface Entry {
  row: ResolvedKeyRow;
  epoch: string | null;
  loadedAt: number;
}

const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 20_000;
const EPOCH_TTL_MS = 3600_000;

const epochKey = (deps: Pick<Deps, 'config'>, hash: string) =>
  `${deps.config.bullmqPrefix}:key-epoch:${hash.slice(0, 32)}`;

/** The cache of one runtime: its rows, and its epoch reads coalesced into one MGET per event-loop turn. */
export interface KeyCache {
  rows: Map<string, Entry>;
  readEpoch: Coalesced<string, string | null>;
  /** Named rate limit checks, coalesced the same way into one script call (src/keys/named-limits.ts). */
  checkLimits: Coalesced<LimitCheck, number>;
}

/**
 * Epoch reads go through the shared coalescer: the batch is sent from setImmediate, after the turn's I/O
 * callbacks (all requests parsed in it) have run, so under load it is one Redis command for many requests, and
 * every read is still sent after its request arrived: it sees every bump committed before that request, which
 * is all the guarantee above needs. An MGET fails as a whole (Redis is away), so no item is re-run alone.
 */
export function createKeyCache(redis: RedisClient): KeyCache {
  return {
    rows: new Map(),
    readEpoch: createCoalescer((keys: string[]) => redis.mget(keys), { maxBatch: 1000, failsAll: () => true }),
    checkLimits: createCoalescer(limitChecker(redis), { maxBatch: 200, failsAll: () => true }),
  };
}

/** The key row for a secret hash: from this instance's cache when its epoch is current, else from Postgres. */
export async function loadKeyByHash(deps: Deps, hash: string): Promise<ResolvedKeyRow | undefined> {
  let epoch: string | null;
  try {
    epoch = await deps.keyCache.readEpoch(epochKey(deps, hash));
  } catch {
    deps.metrics.keyCache.inc({ result: 'bypass' });
    return findKeyBySecretHash(deps.db, hash);
  }
  const cache = deps.keyCache.rows;
  const at = now().getTime();
  const hit = cache.get(hash);
  if (hit && hit.epoch === epoch && at - hit.loadedAt < MAX_AGE_MS) {
    deps.metrics.keyCache.inc({ result: 'hit' });
    return hit.row;
  }
  deps.metrics.keyCache.inc({ result: 'miss' });

  const row = await findKeyBySecretHash(deps.db, hash, { lockShared: true });
  if (!row) {
    cache.delete(hash);
    return undefined;
  }
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(hash, { row, epoch, loadedAt: at });
  return row;
}

/**
 * Step 2 of a lifecycle change: bumps the epochs of every secret hash the locked row carries. Call it inside
 * the transaction, after locking the row and before changing it; if Redis fails, the change must not commit.
 */
export async function invalidateKeyHashes(
  deps: Pick<Deps, 'config' | 'redis'>,
  hashes: Array<string | null | undefined>,
): Promise<void> {
  const multi = deps.redis.multi();
  for (const hash of hashes) {
    if (!hash) continue;
    const key = epochKey(deps, hash);
    multi.incr(key).pexpire(key, EPOCH_TTL_MS);
  }
  const results = await multi.exec();
  const failed = results?.find(([err]) => err);
  if (!results || failed) throw failed?.[0] ?? new Error('could not invalidate cached keys');
}
