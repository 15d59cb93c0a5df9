import type { Conn } from '../platform/db.js';
import { paginate, type PageQuery } from '../platform/pagination.js';

export type KeyStatus = 'active' | 'deactivated' | 'expired';

export interface KeyRow {
  id: string;
  account_id: string;
  name: string;
  key_type: 'account' | 'agent';
  key_prefix: string;
  agent_id: string | null;
  scopes: string[];
  status: KeyStatus;
  secret_hash: string;
  previous_secret_hash: string | null;
  rotation_grace_until: Date | null;
  expires_at: Date | null;
  allowed_ips: string[];
  spend_cap_credits: number | null;
  spent_credits: number;
  last_used_at: Date | null;
  last_used_ip: string | null;
  expiry_notified_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewKeyRow = Pick<
  KeyRow,
  | 'id'
  | 'name'
  | 'key_type'
  | 'key_prefix'
  | 'agent_id'
  | 'scopes'
  | 'secret_hash'
  | 'expires_at'
  | 'allowed_ips'
  | 'spend_cap_credits'
>;

const now = (conn: Conn) => conn.fn.now() as unknown as Date;

export async function insertKey(conn: Conn, accountId: string, row: NewKeyRow): Promise<KeyRow> {
  const [key] = await conn<KeyRow>('api_keys')
    .insert({ ...row, account_id: accountId })
    .returning('*');
  return key!;
}

/**
 * Authentication lookup: the key whose current (else previous) secret has this hash, across accounts (the hash
 * is the credential). Plain unique-index queries: an OR of the two costs more to plan than to run.
 * `lockShared` (FOR SHARE) waits for a key edit in flight to commit, so the row read is never the version a
 * concurrent deactivate/delete/rotate is replacing (see src/keys/key-cache.ts).
 */
export async function findKeyBySecretHash(
  conn: Conn,
  hash: string,
  opts: { lockShared?: boolean } = {},
): Promise<(KeyRow & { via_previous: boolean }) | undefined> {
  const lookup = (column: 'secret_hash' | 'previous_secret_hash') => {
    const q = conn<KeyRow>('api_keys').where(column, hash);
    return (opts.lockShared ? q.forShare() : q).first();
  };
  const current = await lookup('secret_hash');
  if (current) return { ...current, via_previous: false };
  const previous = await lookup('previous_secret_hash');
  return previous ? { ...previous, via_previous: true } : undefined;
}

/** Locks a key row for a lifecycle change; readers using FOR SHARE wait until the change commits. */
export async function lockKey(conn: Conn, accountId: string, keyId: string): Promise<KeyRow | undefined> {
  return conn<KeyRow>('api_keys').where({ account_id: accountId, id: keyId }).forUpdate().first();
}

export async function findKey(conn: Conn, accountId: string, keyId: string): Promise<KeyRow | undefined> {
  return conn<KeyRow>('api_keys').where({ account_id: accountId, id: keyId }).first();
}

export function listKeys(conn: Conn, accountId: string, page: PageQuery, filter: { agentId?: string } = {}) {
  const query = conn('api_keys').where({ account_id: accountId });
  if (filter.agentId) query.andWhere({ agent_id: filter.agentId });
  return paginate<KeyRow>(query, 'api_keys', page);
}

export async function updateKey(
  conn: Conn,
  accountId: string,
  keyId: string,
  patch: Partial<KeyRow>,
): Promise<KeyRow | undefined> {
  const [key] = await conn<KeyRow>('api_keys')
    .where({ account_id: accountId, id: keyId })
    .update({ ...patch, updated_at: now(conn) })
    .returning('*');
  return key;
}

/**
 * Swaps in a new secret. The current secret becomes the previous one until `graceUntil`; a secret that was
 * already "previous" (an earlier rotation) is dropped here, so a second rotation ends it at once.
 */
export async function rotateKeySecret(
  conn: Conn,
  accountId: string,
  keyId: string,
  newHash: string,
  graceUntil: Date,
): Promise<KeyRow | undefined> {
  const [key] = await conn<KeyRow>('api_keys')
    .where({ account_id: accountId, id: keyId, status: 'active' })
    .update({
      previous_secret_hash: conn.ref('secret_hash') as unknown as string,
      secret_hash: newHash,
      rotation_grace_until: graceUntil,
      updated_at: now(conn),
    })
    .returning('*');
  return key;
}

export async function deleteKey(conn: Conn, accountId: string, keyId: string): Promise<KeyRow | undefined> {
  const [key] = await conn<KeyRow>('api_keys').where({ account_id: accountId, id: keyId }).delete().returning('*');
  return key;
}

/** Records use to the minute: the row is written only when the stored time is a minute old or more. */
export async function touchKeyUsage(conn: Conn, accountId: string, keyId: string, ip: string): Promise<void> {
  await conn('api_keys')
    .where({ account_id: accountId, id: keyId })
    .andWhere((q) => q.whereNull('last_used_at').orWhereRaw(`last_used_at < now() - interval '1 minute'`))
    .update({ last_used_at: now(conn), last_used_ip: ip });
}

export type KeySpend = Pick<
  KeyRow,
  'id' | 'name' | 'key_type' | 'key_prefix' | 'agent_id' | 'expires_at' | 'spend_cap_credits' | 'spent_credits'
>;

/**
 * Adds to a key's spentCredits unless that would pass its cap; the row lock serialises concurrent charges.
 * Answers the key after the charge (spent_credits includes it).
 */
export async function addKeySpend(
  conn: Conn,
  accountId: string,
  keyId: string,
  amount: number,
): Promise<KeySpend | undefined> {
  const [row] = await conn('api_keys')
    .where({ account_id: accountId, id: keyId })
    .andWhere((q) => q.whereNull('spend_cap_credits').orWhereRaw('spent_credits + ? <= spend_cap_credits', [amount]))
    .increment('spent_credits', amount)
    .returning([
      'id',
      'name',
      'key_type',
      'key_prefix',
      'agent_id',
      'expires_at',
      'spend_cap_credits',
      'spent_credits',
    ]);
  return row as KeySpend | undefined;
}
