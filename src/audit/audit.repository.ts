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
  actor_type: 'user' | 'key' | 'system';
  actor_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  details: Record<string, unknown>;
  created_at: Date;
}

/** Who acted: a principal, or the system (sweeps) for a given account. */
export type Actor = Principal | { type: 'system'; accountId: string };

export async function recordAudit(conn: Conn, actor: Actor, entry: AuditEntry): Promise<void> {
  await conn('audit_log').insert({
    id: newId('log'),
    account_id: actor.accountId,
    actor_type: actor.type === 'session' ? 'user' : actor.type,
    actor_id: actor.type === 'session' ? actor.userId : actor.type === 'key' ? actor.keyId : null,
    action: entry.action,
    target_type: entry.targetType ?? null,
    target_id: entry.targetId ?? null,
    ip: entry.ip ?? null,
    details: JSON.stringify(entry.details ?? {}),
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
