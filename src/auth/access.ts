import { AppError } from '../platform/errors.js';
import { isAdminSession, type Principal } from './principal.js';
import { scopeSatisfies, type AccountScope, type AgentScope } from './scopes.js';

/**
 * What a route requires, declared next to its path. Every route has one; a test walks the router to prove it.
 * - public: no credential (signup, login, health, inbound with its own token)
 * - authenticated: any valid session or key of the account
 * - admin: an owner or admin session (keys and member sessions get admin_session_required)
 * - scope: sessions pass; account keys need `scope`; per-agent keys need `agentScope` and the path's
 *   `:agentParam` to be their own agent. Without `agentScope` the route is account-only.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  | { kind: 'admin' }
  | { kind: 'scope'; scope: AccountScope; agentScope?: AgentScope; agentParam?: string }
  /** Only the per-agent key of the agent in `:param` (the per-agent MCP endpoint); scopes are checked per tool. */
  | { kind: 'agentKey'; param: string }
  /** Minting per-agent keys; see `agentKeyMinting`. */
  | { kind: 'agentKeyMinting' };

export const publicAccess: Access = { kind: 'public' };
export const authenticated: Access = { kind: 'authenticated' };
export const adminOnly: Access = { kind: 'admin' };
export const agentKeyOnly = (param: string): Access => ({ kind: 'agentKey', param });
export const requireScope = (scope: AccountScope, agent?: { scope: AgentScope; param?: string }): Access => ({
  kind: 'scope',
  scope,
  ...(agent ? { agentScope: agent.scope, agentParam: agent.param ?? 'agentId' } : {}),
});

/**
 * Minting per-agent keys: an owner/admin session, or (when the account's agentKeyMinting policy is
 * 'account_keys', checked by the keys service because it is data) an account key holding write:agents.
 * Per-agent keys and member sessions never.
 */
export const agentKeyMinting: Access = { kind: 'agentKeyMinting' };

export function insufficientScope(required: string): AppError {
  return new AppError('insufficient_scope', `This credential lacks the scope ${required}`, { requiredScope: required });
}

export const agentForbidden = () =>
  new AppError('agent_forbidden', 'A per-agent key can only reach its own agent under /v1/agents/<agentId>');

/** Decides whether an authenticated principal may use a route. Throws the 403s of docs/adr/0001-error-shape.md. */
export function authorize(principal: Principal, access: Access, params: Record<string, string>): void {
  if (access.kind === 'public') return;

  if (principal.type === 'key' && principal.keyType === 'agent') {
    if (access.kind === 'agentKey') {
      if (params[access.param] !== principal.agentId) throw agentForbidden();
      return;
    }
    if (access.kind !== 'scope' || !access.agentScope) throw agentForbidden();
    if (params[access.agentParam ?? 'agentId'] !== principal.agentId) throw agentForbidden();
    if (!scopeSatisfies(principal.scopes, access.agentScope)) throw insufficientScope(access.agentScope);
    return;
  }

  switch (access.kind) {
    case 'authenticated':
      return;
    case 'admin':
      if (!isAdminSession(principal)) {
        throw new AppError(
          'admin_session_required',
          'This action needs an owner or admin session; API keys and members cannot perform it',
        );
      }
      return;
    case 'scope':
      if (principal.type === 'key' && !scopeSatisfies(principal.scopes, access.scope))
        throw insufficientScope(access.scope);
      return;
    case 'agentKey':
      throw new AppError(
        'agent_forbidden',
        "Only this agent's own per-agent key (ca_agt_) may use this endpoint; account keys and sessions use /v1/mcp",
      );
    case 'agentKeyMinting':
      if (principal.type === 'key') {
        if (!scopeSatisfies(principal.scopes, 'write:agents')) throw insufficientScope('write:agents');
        return;
      }
      if (!isAdminSession(principal))
        throw new AppError('admin_session_required', 'Minting per-agent keys needs an owner or admin session');
      return;
  }
}
