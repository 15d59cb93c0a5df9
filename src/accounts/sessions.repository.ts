import type { Conn } from '../platform/db.js';
import type { Role } from '../auth/principal.js';

export interface SessionRow {
  id: string;
  account_id: string;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  created_at: Date;
}

export async function insertSession(conn: Conn, row: Omit<SessionRow, 'created_at'>): Promise<SessionRow> {
  const [session] = await conn<SessionRow>('sessions').insert(row).returning('*');
  return session!;
}

/** The session for a token hash with its user's current role (a role change applies at once). */
export async function findSessionByHash(conn: Conn, tokenHash: string) {
  return conn('sessions')
    .join('users', 'users.id', 'sessions.user_id')
    .where('sessions.token_hash', tokenHash)
    .first<(SessionRow & { role: Role }) | undefined>('sessions.*', 'users.role');
}

export async function deleteSession(conn: Conn, accountId: string, sessionId: string): Promise<number> {
  return conn('sessions').where({ account_id: accountId, id: sessionId }).delete();
}

/** Deletes expired sessions in batches, so one sweep never holds a long lock. */
export async function deleteExpiredSessions(conn: Conn, before: Date, batch = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await conn('sessions')
      .whereIn('id', conn('sessions').select('id').where('expires_at', '<', before).limit(batch))
      .delete();
    total += deleted;
    if (deleted < batch) return total;
  }
}
