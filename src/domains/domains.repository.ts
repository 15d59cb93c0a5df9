import type { Conn } from '../platform/db.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import type { DomainRow, RecordCheck, RecordPurpose } from './domains.schema.js';

export async function insertDomain(
  conn: Conn,
  accountId: string,
  values: Pick<DomainRow, 'id' | 'name' | 'dkim_selector' | 'dkim_public_key' | 'dkim_private_key_sealed'>,
): Promise<DomainRow> {
  const [row] = await conn<DomainRow>('domains')
    .insert({ ...values, account_id: accountId })
    .returning('*');
  return row as DomainRow;
}

export function listDomains(conn: Conn, accountId: string, page: PageQuery) {
  return paginate<DomainRow>(conn('domains').where({ account_id: accountId }), 'domains', page);
}

/** Scoped by account: another account's domain is simply not found. */
export async function findDomain(conn: Conn, accountId: string, domainId: string): Promise<DomainRow | undefined> {
  return conn<DomainRow>('domains').where({ account_id: accountId, id: domainId }).first();
}

export async function findDomainByName(conn: Conn, accountId: string, name: string): Promise<DomainRow | undefined> {
  return conn<DomainRow>('domains').where({ account_id: accountId, name }).first();
}

export async function deleteDomain(conn: Conn, accountId: string, domainId: string): Promise<boolean> {
  return (await conn('domains').where({ account_id: accountId, id: domainId }).delete()) > 0;
}

/** Stores one verification's outcome; verified_at keeps the first moment of an unbroken verified state. */
export async function recordDomainChecks(
  conn: Conn,
  accountId: string,
  domainId: string,
  checks: Record<RecordPurpose, RecordCheck>,
  status: DomainRow['status'],
): Promise<DomainRow | undefined> {
  const [row] = await conn<DomainRow>('domains')
    .where({ account_id: accountId, id: domainId })
    .update({
      checks: JSON.stringify(checks) as unknown as DomainRow['checks'],
      status,
      last_checked_at: conn.fn.now() as unknown as Date,
      verified_at: (status === 'verified' ? conn.raw('coalesce(verified_at, now())') : null) as unknown as Date,
      updated_at: conn.fn.now() as unknown as Date,
    })
    .returning('*');
  return row as DomainRow | undefined;
}
