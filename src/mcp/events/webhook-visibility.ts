import type { KeyPrincipal } from '../../auth/principal.js';
import { scopeSatisfies, type AccountScope } from '../../auth/scopes.js';

// Which events a principal may see on an MCP endpoint, the one rule of visibility for MCP events (poll, push and
// webhook follow it alike; docs/mcp-events-webhook.md#which-events). It answers with the payload filter that
// confines the subscription to them, so the fan-out itself never hands over an event outside the rule.

/** The endpoint a request came in on: the account's, or one agent's (its per-agent key). */
export type EventsEndpoint = { kind: 'account' } | { kind: 'agent'; agentId: string };

export type Visibility = { ok: true; filter: Record<string, string> } | { ok: false; reason: string };

/** The read scope an account credential needs for each family of events (the REST routes' own scopes). */
const READ_SCOPE: Record<string, AccountScope> = {
  message: 'read:messages',
  inbox: 'read:inboxes',
  agent: 'read:agents',
  contact: 'read:contacts',
  webhook: 'read:webhooks',
  api_key: 'read:api_keys',
  billing: 'read:billing',
};

/**
 * Per-agent endpoint: only events about that agent (message.* of its inboxes, its inbox.* events, agent.updated
 * for itself). Account endpoint: the families the credential's read scopes cover, the whole account.
 */
export function eventVisibility(principal: KeyPrincipal, endpoint: EventsEndpoint, name: string): Visibility {
  const family = name.slice(0, name.indexOf('.'));
  if (endpoint.kind === 'agent') {
    if (principal.agentId !== endpoint.agentId) return { ok: false, reason: 'not this agent’s credential' };
    if (family === 'message' || family === 'inbox') return { ok: true, filter: { agentId: endpoint.agentId } };
    if (name === 'agent.updated') return { ok: true, filter: { id: endpoint.agentId } };
    return { ok: false, reason: `${name} is not an event of this agent` };
  }
  const scope = READ_SCOPE[family];
  if (!scope) return { ok: false, reason: `${name} is not offered on this endpoint` };
  if (!scopeSatisfies(principal.scopes, scope)) return { ok: false, reason: `${name} needs the scope ${scope}` };
  return { ok: true, filter: {} };
}
