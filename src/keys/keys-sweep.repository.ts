import type { Conn } from '../platform/db.js';
import type { KeyRow } from './keys.repository.js';

// Sweep statements: each touches at most `batch` rows, locked with SKIP LOCKED so two sweeps never wait on
// each other or on a request that is editing the same key. These run across accounts by design.

export type SweptKey = Pick<
  KeyRow,
  'id' | 'account_id' | 'name' | 'key_type' | 'key_prefix' | 'agent_id' | 'expires_at'
>;
const sweptColumns = ['id', 'account_id', 'name', 'key_type', 'key_prefix', 'agent_id', 'expires_at'];

export async function expireDueKeys(conn: Conn, at: Date, batch: number): Promise<SweptKey[]> {
  const due = conn('api_keys')
    .select('id')
    .where({ status: 'active' })
    .andWhere('expires_at', '<=', at)
    .limit(batch)
    .forUpdate()
    .skipLocked();
  return conn('api_keys')
    .whereIn('id', due)
    .update({ status: 'expired', updated_at: conn.fn.now() })
    .returning(sweptColumns);
}

export async function clearEndedGraces(conn: Conn, at: Date, batch: number): Promise<number> {
  const ended = conn('api_keys')
    .select('id')
    .whereNotNull('previous_secret_hash')
    .andWhere('rotation_grace_until', '<=', at)
    .limit(batch)
    .forUpdate()
    .skipLocked();
  const rows = await conn('api_keys')
    .whereIn('id', ended)
    .update({ previous_secret_hash: null, rotation_grace_until: null, updated_at: conn.fn.now() })
    .returning('id');
  return rows.length;
}

/** Active keys expiring before `horizon` whose owner has not been told yet; marked as told in the same step. */
export async function claimKeysToWarn(conn: Conn, at: Date, horizon: Date, batch: number): Promise<SweptKey[]> {
  const due = conn('api_keys')
    .select('id')
    .where({ status: 'active' })
    .whereNull('expiry_notified_at')
    .andWhere('expires_at', '>', at)
    .andWhere('expires_at', '<=', horizon)
    .limit(batch)
    .forUpdate()
    .skipLocked();
  return conn('api_keys').whereIn('id', due).update({ expiry_notified_at: conn.fn.now() }).returning(sweptColumns);
}
