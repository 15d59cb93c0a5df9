import type { Conn } from '../platform/db.js';
import { iso } from '../platform/clock.js';
import { newId } from '../platform/ids.js';
import { paginate, type PageQuery } from '../platform/pagination.js';
import type { Principal } from '../auth/principal.js';

export interface AuditEntry {
  action: string;
  targetType?: string;
  targetId?: string;
  ip?: string | null;
  details?: Record<string, unknown>;
}

interface AuditRow {
  id: string;
  account_id: string;
  actor_type: 'user' | 'key' | 'oauth' | 'system';
  actor_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  details: Record<string, unknown>;
  created_at: Date;
}

/**
 * Who acted: a principal, a person without a session (consenting to an OAuth client), or the system (sweeps).
 */
export type AuditActor =
  Principal | { type: 'user'; accountId: string; userId: string } | { type: 'system'; accountId: string };

function actorColumns(actor: AuditActor): { actor_type: string; actor_id: string | null } {
  switch (actor.type) {
    case 'session':
    case 'user':
      return { actor_type: 'user', actor_id: actor.userId };
    // An OAuth access token acts as a key; its entries name the grant, and the client in their details.
    case 'key':
      return actor.oauth
        ? { actor_type: 'oauth', actor_id: actor.oauth.grantId }
        : { actor_type: 'key', actor_id: actor.keyId };
    case 'system':
      return { actor_type: 'system', actor_id: null };
  }
}

export async function recordAudit(conn: Conn, actor: AuditActor, entry: AuditEntry): Promise<void> {
  const oauthClient =
    actor.type === 'key' && actor.oauth
      ? { oauthClient: { id: actor.oauth.clientId, name: actor.oauth.clientName } }
      : {};
  await conn('audit_log').insert({
    id: newId('log'),
    account_id: actor.accountId,
    ...actorColumns(actor),
    action: entry.action,
    target_type: entry.targetType ?? null,
    target_id: entry.targetId ?? null,
    ip: entry.ip ?? null,
    details: JSON.stringify({ ...entry.details, ...oauthClient }),
  });
}

export function listAudit(conn: Conn, accountId: string, page: PageQuery) {
  return paginate<AuditRow>(conn('audit_log').where({ account_id: accountId }), 'audit_log', page);
}

export const toAuditResponse = (r: AuditRow) => ({
  id: r.id,
  action: r.action,
  actor: { type: r.actor_type, id: r.actor_id },
  target: r.target_type ? { type: r.target_type, id: r.target_id } : null,
  ip: r.ip,
  details: r.details,
  createdAt: iso(r.created_at),
});
