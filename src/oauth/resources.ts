import { ACCOUNT_SCOPES, AGENT_SCOPES, DEFAULT_AGENT_SCOPES, DEFAULT_ACCOUNT_SCOPES } from '../auth/scopes.js';
import type { Resource, Role } from '../auth/principal.js';

// The OAuth protected resources (RFC 8707 / RFC 9728) are Switchboard's two MCP endpoints. A resource indicator
// is the endpoint's absolute URL under PUBLIC_URL; nothing else is a resource, so a token can never name the
// REST API or another server.

export const OAUTH_MOUNT = '/oauth';
export const ACCOUNT_MCP_PATH = '/v1/mcp';
const AGENT_MCP_PATH = /^\/v1\/agents\/(agt_[0-9A-Za-z]{1,64})\/mcp$/;

export const issuerOf = (publicUrl: string): string => `${publicUrl}${OAUTH_MOUNT}`;

export const agentMcpPath = (agentId: string): string => `/v1/agents/${agentId}/mcp`;

/** The resource an MCP request path is, or null (the REST API and everything else). */
export function resourceOfPath(publicUrl: string, path: string): Resource | null {
  if (path === ACCOUNT_MCP_PATH) return { kind: 'account', url: publicUrl + path };
  const agent = AGENT_MCP_PATH.exec(path);
  return agent ? { kind: 'agent', url: publicUrl + path, agentId: agent[1]! } : null;
}

/** Parses a resource indicator; null for anything that is not exactly one of our MCP endpoint URLs. */
export function parseResource(publicUrl: string, indicator: string): Resource | null {
  if (!indicator.startsWith(publicUrl + '/')) return null;
  return resourceOfPath(publicUrl, indicator.slice(publicUrl.length));
}

/** The scopes a resource offers: its key namespace, without wildcards (a person grants what they can read). */
export const scopesOf = (resource: Pick<Resource, 'kind'>): readonly string[] =>
  resource.kind === 'agent' ? AGENT_SCOPES : ACCOUNT_SCOPES;

/** Pre-ticked on the consent page: the same defaults a new key gets. */
export const defaultScopesOf = (resource: Pick<Resource, 'kind'>): readonly string[] =>
  resource.kind === 'agent' ? DEFAULT_AGENT_SCOPES : DEFAULT_ACCOUNT_SCOPES;

export type AgentKeyMinting = 'admins' | 'account_keys';

/**
 * Who may grant a resource (docs/mcp.md#who-may-grant-what-over-oauth): a person grants a client no more than a key they could
 * have minted. Owners and admins may grant either resource. A member may grant an agent's scopes only when
 * the account's agentKeyMinting policy is `account_keys` (per-agent credentials may then be minted outside
 * admin sessions); under `admins` nothing, and account scopes never (account keys are minted by admins only).
 * Checked at consent and again on every request with the grantor's current role and the current policy.
 */
export const mayGrant = (role: Role, resource: Pick<Resource, 'kind'>, minting: AgentKeyMinting): boolean =>
  role === 'owner' || role === 'admin' || (resource.kind === 'agent' && minting === 'account_keys');

/** Every scope any resource offers, for the authorization server's scopes_supported. */
export const ALL_RESOURCE_SCOPES: readonly string[] = [...AGENT_SCOPES, ...ACCOUNT_SCOPES];
