// The two scope namespaces (interface: "Scope namespaces") and the one matching rule.

export const ACCOUNT_SCOPES = [
  'read:agents',
  'write:agents',
  'read:contacts',
  'write:contacts',
  'read:messages',
  'write:messages',
  'messages:send',
  'read:inboxes',
  'write:inboxes',
  'read:webhooks',
  'write:webhooks',
  'integrations:read',
  'integrations:manage',
  'read:domains',
  'write:domains',
  'read:billing',
  'read:account',
  'read:activity',
  'trigger:agents',
  'read:api_keys',
] as const;
export type AccountScope = (typeof ACCOUNT_SCOPES)[number];

export const AGENT_SCOPES = [
  'agent:config:read',
  'agent:conversations:read',
  'agent:activity:read',
  'agent:config:write',
  'agent:trigger',
] as const;
export type AgentScope = (typeof AGENT_SCOPES)[number];

export type Scope = AccountScope | AgentScope;

/** Wildcards a key may be granted (account namespace only). */
export const ACCOUNT_WILDCARDS = ['read:*', '*:agents'] as const;

export const NEVER_GRANTABLE = ['*', 'write:billing', 'write:api_keys'] as const;

export const DEFAULT_ACCOUNT_SCOPES: AccountScope[] = ['read:agents', 'read:contacts', 'read:account'];
export const DEFAULT_AGENT_SCOPES: AgentScope[] = [
  'agent:config:read',
  'agent:conversations:read',
  'agent:activity:read',
];

export const MONEY_SPENDING_SCOPES: Scope[] = ['messages:send', 'trigger:agents', 'agent:trigger'];

/**
 * Does any granted scope satisfy the required one? Literal match, plus 'read:*' for any read:<resource>,
 * '*:agents' for any <verb>:agents, and the legacy '*' for everything. Wildcards never cross namespaces:
 * an agent scope (three parts) is only ever satisfied literally or by legacy '*'.
 */
export function scopeSatisfies(granted: readonly string[], required: Scope): boolean {
  const parts = required.split(':');
  const isAccountScope = parts.length === 2;
  for (const g of granted) {
    if (g === required || g === '*') return true;
    if (!isAccountScope) continue;
    if (g === 'read:*' && parts[0] === 'read') return true;
    if (g === '*:agents' && parts[1] === 'agents') return true;
  }
  return false;
}
