import type { Conn } from '../platform/db.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import type { AccountRow, UserRow } from './accounts.schema.js';

export async function insertAccount(
  conn: Conn,
  row: Pick<AccountRow, 'id' | 'name' | 'credits_balance'>,
): Promise<AccountRow> {
  const [account] = await conn<AccountRow>('accounts').insert(row).returning('*');
  return account!;
}

export async function findAccount(conn: Conn, accountId: string): Promise<AccountRow | undefined> {
  return conn<AccountRow>('accounts').where({ id: accountId }).first();
}

export async function updateAccount(
  conn: Conn,
  accountId: string,
  patch: Partial<AccountRow>,
): Promise<AccountRow | undefined> {
  const [account] = await conn<AccountRow>('accounts')
    .where({ id: accountId })
    .update({ ...patch, updated_at: conn.fn.now() as unknown as Date })
    .returning('*');
  return account;
}

export async function insertUser(
  conn: Conn,
  accountId: string,
  row: Omit<UserRow, 'account_id' | 'created_at'>,
): Promise<UserRow> {
  const [user] = await conn<UserRow>('users')
    .insert({ ...row, account_id: accountId })
    .returning('*');
  return user!;
}

/** Login looks a user up across accounts by email: emails are unique service-wide. */
export async function findUserByEmail(conn: Conn, email: string): Promise<UserRow | undefined> {
  return conn<UserRow>('users').whereRaw('lower(email) = lower(?)', [email]).first();
}

export async function findOwner(conn: Conn, accountId: string): Promise<UserRow | undefined> {
  return conn<UserRow>('users').where({ account_id: accountId, role: 'owner' }).orderBy('created_at').first();
}

export function listUsers(conn: Conn, accountId: string, page: PageQuery) {
  return paginate<UserRow>(conn('users').where({ account_id: accountId }), 'users', page);
}

/** A person by id alone, across accounts: the OAuth authorization server knows people by user id (its subject). */
export async function findUserById(conn: Conn, userId: string): Promise<UserRow | undefined> {
  return conn<UserRow>('users').where({ id: userId }).first();
}
