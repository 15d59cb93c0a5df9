import type { Conn } from '../platform/db.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import type { SpendInterval } from './spend-period.js';
import type { NamedLimit } from './named-limits.js';

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
  /** The credits spent in the current period (since spend_period_start), or ever when the cap does not refill. */
  spent_credits: number;
  spend_cap_interval: SpendInterval | null;
  /** The day of the month a monthly cap refills (1..31; the last day of shorter months). */
  spend_cap_refill_day: number | null;
  spend_period_start: Date | null;
  /** The key's own named rate limits. */
  rate_limits: NamedLimit[];
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
  | 'spend_cap_interval'
  | 'spend_cap_refill_day'
  | 'rate_limits'
>;

const now = (conn: Conn) => conn.fn.now() as unknown as Date;

export async function insertKey(conn: Conn, accountId: string, row: NewKeyRow): Promise<KeyRow> {
  const [key] = await conn<KeyRow>('api_keys')
    .insert({
      ...row,
      rate_limits: JSON.stringify(row.rate_limits) as unknown as NamedLimit[],
      account_id: accountId,
      spend_period_start: row.spend_cap_interval
        ? (conn.raw('spend_period_start(?, ?::smallint, now())', [
            row.spend_cap_interval,
            row.spend_cap_refill_day,
          ]) as unknown as Date)
        : null,
    })
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
): Promise<(KeyRow & { via_previous: boolean; agent_rate_limits: NamedLimit[] | null }) | undefined> {
  const lookup = (column: 'secret_hash' | 'previous_secret_hash') => {
    const q = conn('api_keys')
      .where(column, hash)
      .select<(KeyRow & { agent_rate_limits: NamedLimit[] | null })[]>(
        'api_keys.*',
        conn.raw('(SELECT key_rate_limits FROM agents WHERE agents.id = api_keys.agent_id) AS agent_rate_limits'),
      );
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
  const { rate_limits: limits, ...rest } = patch;
  const [key] = await conn<KeyRow>('api_keys')
    .where({ account_id: accountId, id: keyId })
    .update({
      ...rest,
      ...(limits ? { rate_limits: JSON.stringify(limits) as unknown as NamedLimit[] } : {}),
      updated_at: now(conn),
    })
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
  | 'id'
  | 'name'
  | 'key_type'
  | 'key_prefix'
  | 'agent_id'
  | 'expires_at'
  | 'spend_cap_credits'
  | 'spent_credits'
  | 'spend_cap_interval'
  | 'spend_period_start'
>;

const CURRENT_PERIOD = 'spend_period_start(spend_cap_interval, spend_cap_refill_day, now())';
/** The key's cap refills and its stored period is older than the current one. */
const REFILLS = `(spend_cap_interval IS NOT NULL AND (spend_period_start IS NULL OR spend_period_start < ${CURRENT_PERIOD}))`;

/**
 * Adds to a key's spentCredits unless that would pass its cap, in one conditional UPDATE: when the key's cap
 * refills and its stored period is older than the one now() falls in (the database's clock, the transaction's
 * start), the same statement sets spentCredits back to 0 and moves the period on before adding. The row lock
 * serialises concurrent charges and Postgres re-evaluates the WHERE and SET on the row a concurrent charge left,
 * so a refill happens once and no period passes its cap, whatever the interleaving. Answers the key after the
 * charge (spent_credits includes it, so the charge took the period from spent_credits - amount).
 */
export async function addKeySpend(
  conn: Conn,
  accountId: string,
  keyId: string,
  amount: number,
): Promise<KeySpend | undefined> {
  const { rows } = await conn.raw<{ rows: KeySpend[] }>(
    `UPDATE api_keys SET
       spent_credits = (CASE WHEN ${REFILLS} THEN 0 ELSE spent_credits END) + :amount,
       spend_period_start = CASE WHEN ${REFILLS} THEN ${CURRENT_PERIOD} ELSE spend_period_start END
     WHERE account_id = :accountId AND id = :keyId
       AND (spend_cap_credits IS NULL
            OR (CASE WHEN ${REFILLS} THEN 0 ELSE spent_credits END) + :amount <= spend_cap_credits)
     RETURNING id, name, key_type, key_prefix, agent_id, expires_at, spend_cap_credits, spent_credits,
               spend_cap_interval, spend_period_start`,
    { accountId, keyId, amount },
  );
  return rows[0];
}
