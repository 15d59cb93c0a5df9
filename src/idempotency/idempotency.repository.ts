import type pg from 'pg';
import type { Conn } from '../platform/db.js';

// Every statement on idempotency_keys. A key is claimed by one request at a time: the claim is an upsert that
// only takes over a row that has expired, or that is still in flight for the very same request while the runtime
// that claimed it holds its lock no more (src/idempotency/claim-holder.ts): its process ended or lost Postgres.

/** The first key of the holders' advisory locks (the second is the holder number). */
const HOLDER_LOCKS = `hashtext('switchboard-idempotency-holder')`;

export interface IdempotencyRow {
  request_hash: string;
  state: 'in_flight' | 'completed';
  response_status: number | null;
  response_body: unknown;
}

/** Takes holder number `holder`'s lock on the runtime's own session; false when another session has it. */
export async function takeHolderLock(session: pg.Client, holder: number): Promise<boolean> {
  const { rows } = await session.query<{ taken: boolean }>(
    `SELECT pg_try_advisory_lock(${HOLDER_LOCKS}, $1) AS taken`,
    [holder],
  );
  return rows[0]!.taken;
}

/**
 * Claims the key for the request `requestHash` on behalf of `holder`; false when another row holds it (read it
 * with findKey). Concurrent claims of one key queue on its row: the first takes it, and the others find it held.
 */
export async function claimKey(
  conn: Conn,
  accountId: string,
  keyHash: string,
  requestHash: string,
  holder: number,
  ttlMs: number,
): Promise<boolean> {
  const { rows } = await conn.raw(
    `INSERT INTO idempotency_keys AS k (account_id, key_hash, request_hash, state, holder, expires_at)
     VALUES (?, ?, ?, 'in_flight', ?, now() + make_interval(secs => ? / 1000.0))
     ON CONFLICT (account_id, key_hash) DO UPDATE SET
       request_hash = excluded.request_hash, state = 'in_flight', holder = excluded.holder,
       response_status = NULL, response_body = NULL, created_at = now(), expires_at = excluded.expires_at
     WHERE k.expires_at <= now()
        OR (k.state = 'in_flight' AND k.request_hash = excluded.request_hash AND NOT EXISTS (
              SELECT 1 FROM pg_locks l
               WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                 AND l.classid = ${HOLDER_LOCKS}::oid AND l.objid = k.holder::oid))
     RETURNING 1`,
    [accountId, keyHash, requestHash, holder, ttlMs],
  );
  return rows.length > 0;
}

/** The live row of a key (an expired one counts as absent). */
export function findKey(conn: Conn, accountId: string, keyHash: string): Promise<IdempotencyRow | undefined> {
  return conn('idempotency_keys')
    .select('request_hash', 'state', 'response_status', 'response_body')
    .where({ account_id: accountId, key_hash: keyHash })
    .andWhere('expires_at', '>', conn.fn.now())
    .first();
}

/** in_flight → completed, with the response to replay; only by the request that holds the claim. */
export async function completeKey(
  conn: Conn,
  accountId: string,
  keyHash: string,
  requestHash: string,
  status: number,
  body: unknown,
): Promise<void> {
  await conn('idempotency_keys')
    .where({ account_id: accountId, key_hash: keyHash, request_hash: requestHash, state: 'in_flight' })
    .update({
      state: 'completed',
      holder: null,
      response_status: status,
      response_body: body === undefined ? null : JSON.stringify(body),
    });
}

/** Gives the key up (the request failed): the next request with it runs afresh. */
export async function releaseKey(conn: Conn, accountId: string, keyHash: string, requestHash: string): Promise<void> {
  await conn('idempotency_keys')
    .where({ account_id: accountId, key_hash: keyHash, request_hash: requestHash, state: 'in_flight' })
    .delete();
}

/** Deletes up to `batch` expired rows (across accounts: a maintenance sweep). */
export async function deleteExpiredKeys(conn: Conn, batch: number): Promise<number> {
  const { rowCount } = await conn.raw(
    `DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(SELECT ctid FROM idempotency_keys WHERE expires_at <= now() LIMIT ?))`,
    [batch],
  );
  return rowCount ?? 0;
}
