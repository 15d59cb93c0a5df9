import { iso } from '../platform/clock.js';
import type { GrantRow } from './grants.repository.js';

/** A grant as its account's admins see it: who let which client do what, where. Never a token or its hash. */
export const toGrantResponse = (g: GrantRow) => ({
  id: g.id,
  clientId: g.client_id,
  clientName: g.client_name,
  resource: g.resource,
  agentId: g.agent_id,
  scopes: g.scopes,
  grantedBy: g.user_id,
  createdAt: iso(g.created_at),
  expiresAt: iso(g.expires_at),
  lastUsedAt: iso(g.last_used_at),
});
