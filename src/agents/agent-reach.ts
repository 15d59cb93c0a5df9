import { agentForbidden } from '../auth/access.js';
import type { Principal } from '../auth/principal.js';

// Routes declare access, and the guard enforces it. Services check the same rule again because the MCP
// endpoints call them without going through a route: a per-agent key reaches its own agent and nothing else.

export const isAgentKey = (p: Principal): boolean => p.type === 'key' && p.keyType === 'agent';

/** Account-wide operations (collections, bulk lists): never for a per-agent key. */
export function assertAccountWide(principal: Principal): void {
  if (isAgentKey(principal)) throw agentForbidden();
}

/** Operations on one agent: a per-agent key only on its own. */
export function assertAgentReach(principal: Principal, agentId: string): void {
  if (principal.type === 'key' && principal.keyType === 'agent' && principal.agentId !== agentId)
    throw agentForbidden();
}
