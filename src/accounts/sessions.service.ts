import { randomBase62, newId } from '../platform/ids.js';
import { DUMMY_PASSWORD_HASH, sha256Hex, verifyPassword } from '../platform/crypto.js';
import type { Deps } from '../app/deps.js';
import type { Conn } from '../platform/db.js';
import { AppError } from '../platform/errors.js';
import { now } from '../platform/clock.js';
import { findUserByEmail, findUserById } from './accounts.repository.js';
import type { UserRow } from './accounts.schema.js';
import type { SessionPrincipal } from '../auth/principal.js';
import { deleteExpiredSessions, deleteSession, findSessionByHash, insertSession } from './sessions.repository.js';

export const SESSION_PREFIX = 'ca_sess_';

export interface IssuedSession {
  token: string;
  expiresAt: Date;
}

/** Issues a session token: shown to the client once, stored only as its SHA-256. */
export async function issueSession(conn: Conn, deps: Pick<Deps, 'config'>, user: UserRow): Promise<IssuedSession> {
  const token = SESSION_PREFIX + randomBase62(40);
  const expiresAt = new Date(now().getTime() + deps.config.sessions.ttlMs);
  await insertSession(conn, {
    id: newId('sess'),
    account_id: user.account_id,
    user_id: user.id,
    token_hash: sha256Hex(token),
    expires_at: expiresAt,
  });
  return { token, expiresAt };
}

const invalidLogin = () => new AppError('invalid_credential', 'Email or password is incorrect');

/** The person with this email and password. Same answer and the same scrypt work whether or not the email exists. */
export async function verifyLogin(deps: Pick<Deps, 'db'>, email: string, password: string): Promise<UserRow> {
  const user = await findUserByEmail(deps.db, email);
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok) throw invalidLogin();
  return user;
}

export async function login(deps: Deps, email: string, password: string) {
  const user = await verifyLogin(deps, email, password);
  return { user, session: await issueSession(deps.db, deps, user) };
}

export async function logout(deps: Deps, principal: SessionPrincipal): Promise<void> {
  await deleteSession(deps.db, principal.accountId, principal.sessionId);
}

export async function resolveSession(deps: Deps, token: string): Promise<SessionPrincipal> {
  const row = await findSessionByHash(deps.db, sha256Hex(token));
  if (!row) throw new AppError('invalid_credential', 'The credential is not valid');
  if (row.expires_at.getTime() <= now().getTime())
    throw new AppError('session_expired', 'The session has expired; log in again');
  return { type: 'session', accountId: row.account_id, userId: row.user_id, sessionId: row.id, role: row.role };
}

/** The email of the person a session belongs to, for pages that name who is signed in. */
export async function sessionEmail(deps: Pick<Deps, 'db'>, principal: SessionPrincipal): Promise<string | null> {
  return (await findUserById(deps.db, principal.userId))?.email ?? null;
}

export const sweepExpiredSessions = (deps: Pick<Deps, 'db'>) => deleteExpiredSessions(deps.db, now());
