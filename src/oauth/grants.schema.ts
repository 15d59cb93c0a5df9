import { z } from 'zod';
import { iso } from '../platform/clock.js';
import { idString, outText, timestamp } from '../platform/output.js';
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

export const grantResponse = z
  .object({
    id: idString('ogr'),
    clientId: outText(),
    clientName: outText().nullable(),
    resource: outText(),
    agentId: idString('agt').nullable(),
    scopes: z.array(outText()),
    grantedBy: idString('usr'),
    createdAt: timestamp(),
    expiresAt: timestamp(),
    lastUsedAt: timestamp().nullable(),
  })
  .meta({ id: 'OAuthGrant' });
