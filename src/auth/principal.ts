import type { AccountScope, AgentScope } from './scopes.js';

export type Role = 'owner' | 'admin' | 'member';

export interface SessionPrincipal {
  type: 'session';
  accountId: string;
  userId: string;
  sessionId: string;
  role: Role;
}

export interface KeyPrincipal {
  type: 'key';
  accountId: string;
  keyId: string;
  keyType: 'account' | 'agent';
  /** Set for per-agent keys only, from the stored key record. */
  agentId: string | null;
  scopes: string[];
  spendCapCredits: number | null;
  /** The key (or its agent) has named rate limits: they replace the plan's limit on money-spending routes. */
  namedLimits?: boolean;
  /**
   * Set when the credential is an OAuth access token (src/oauth/oauth-token-resolve.ts): it acts as a key of
   * this type with the granted scopes, and `keyId` is then the grant's id (ogr_…), for rate limits and the ledger.
   */
  oauth?: OAuthClientRef;
}

export interface OAuthClientRef {
  grantId: string;
  clientId: string;
  clientName: string | null;
}

export type Principal = SessionPrincipal | KeyPrincipal;

export const isAdminSession = (p: Principal): boolean =>
  p.type === 'session' && (p.role === 'owner' || p.role === 'admin');

export type { AccountScope, AgentScope };

/** An OAuth protected resource: one of the two MCP endpoints (src/oauth/resources.ts parses them). */
export type Resource = { kind: 'account'; url: string } | { kind: 'agent'; url: string; agentId: string };

/**
 * Who calls a service that changes data: the principal, and the client's address for the audit log (null when no
 * request carries the call: a test, a script).
 */
export interface Caller {
  principal: Principal;
  ip: string | null;
}

export interface RequestInfo {
  ip: string;
  /** The origin clients reach the API at, and the OAuth resource (an MCP endpoint) this request is, if any. */
  publicUrl?: string;
  resource?: Resource | null;
}

export interface Resolved {
  principal: Principal;
  /** Headers the response must carry, e.g. Deprecation/Sunset for a rotated key's old secret. */
  headers?: Record<string, string>;
}
