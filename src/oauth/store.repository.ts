import type { Conn } from '../platform/db.js';

// The authorization server's storage (see oauth-store.ts). Every id arrives here already hashed.

export interface StoreRow {
  payload: string;
  consumed_at: Date | null;
}

export interface StoreWrite {
  model: string;
  idHash: string;
  payload: string;
  grantIdHash: string | null;
  uidHash: string | null;
  expiresAt: Date | null;
}

const live = (conn: Conn) => (q: ReturnType<Conn>) =>
  q.where((w) => w.whereNull('expires_at').orWhere('expires_at', '>', conn.fn.now()));

export async function upsertStored(conn: Conn, row: StoreWrite): Promise<void> {
  await conn('oauth_store')
    .insert({
      model: row.model,
      id_hash: row.idHash,
      payload: row.payload,
      grant_id_hash: row.grantIdHash,
      uid_hash: row.uidHash,
      expires_at: row.expiresAt,
    })
    .onConflict(['model', 'id_hash'])
    .merge(['payload', 'grant_id_hash', 'uid_hash', 'expires_at']);
}

export async function findStored(conn: Conn, model: string, idHash: string): Promise<StoreRow | undefined> {
  return live(conn)(conn('oauth_store').where({ model, id_hash: idHash })).first<StoreRow | undefined>(
    'payload',
    'consumed_at',
  );
}

export async function findStoredByUid(conn: Conn, model: string, uidHash: string): Promise<StoreRow | undefined> {
  return live(conn)(conn('oauth_store').where({ model, uid_hash: uidHash })).first<StoreRow | undefined>(
    'payload',
    'consumed_at',
  );
}

/**
 * Marks a code or refresh token used, once: of concurrent callers exactly one gets its grant back (`consumed`);
 * the others get `replayed` and the grant it belongs to, or `missing` when the row is gone or expired.
 */
export async function consumeStored(conn: Conn, model: string, idHash: string): Promise<ConsumeOutcome> {
  const [won] = await live(conn)(conn('oauth_store').where({ model, id_hash: idHash }).whereNull('consumed_at'))
    .update({ consumed_at: conn.fn.now() })
    .returning<Array<{ grant_id_hash: string | null }>>('grant_id_hash');
  if (won) return { outcome: 'consumed', grantIdHash: won.grant_id_hash };
  const lost = await conn('oauth_store')
    .where({ model, id_hash: idHash })
    .first<{ grant_id_hash: string | null } | undefined>('grant_id_hash');
  return lost ? { outcome: 'replayed', grantIdHash: lost.grant_id_hash } : { outcome: 'missing', grantIdHash: null };
}

export interface ConsumeOutcome {
  outcome: 'consumed' | 'replayed' | 'missing';
  grantIdHash: string | null;
}

export async function deleteStored(conn: Conn, model: string, idHash: string): Promise<void> {
  await conn('oauth_store').where({ model, id_hash: idHash }).delete();
}

/** Every artifact of a grant (codes, tokens, the grant itself), across models. */
export async function deleteStoredByGrant(conn: Conn, grantIdHash: string): Promise<number> {
  return conn('oauth_store').where({ grant_id_hash: grantIdHash }).delete();
}

/** Removes up to `batch` expired rows; expired rows are already invisible to every read. */
export async function deleteExpiredStored(conn: Conn, batch: number): Promise<number> {
  return conn('oauth_store')
    .whereIn(
      ['model', 'id_hash'],
      conn('oauth_store').select('model', 'id_hash').where('expires_at', '<', conn.fn.now()).limit(batch),
    )
    .delete();
}
