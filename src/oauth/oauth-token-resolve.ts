import type { Deps } from '../app/deps.js';
import { AppError } from '../platform/errors.js';
import { findAccessTokenWithGrant, touchGrantUsage } from './grants.repository.js';
import { hashOAuthId, openStoredPayload } from './oauth-store.js';
import { mayGrant, parseResource, scopesOf } from './resources.js';
import type { KeyPrincipal, RequestInfo, Resolved, Resource } from '../auth/principal.js';
import { now } from '../platform/clock.js';

// OAuth access tokens (issued by the authorization server under /oauth) are opaque: 256 random bits in
// base64url, 43 characters, which no session token or API key can be. A token is a Switchboard credential:
// for an agent's MCP endpoint it is that agent's per-agent key with the granted scopes, for /v1/mcp an account
// key with the granted scopes. Nothing is cached: each request reads the token, its grant and the granting
// person's role in one indexed statement, so revoking a grant acts on the very next request on every instance.

const ACCESS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const looksLikeAccessToken = (token: string): boolean => ACCESS_TOKEN_PATTERN.test(token);

const invalidToken = (message = 'The access token is not valid') => new AppError('invalid_credential', message);

/** Is a token for `audience` accepted at `requested`? See docs/adr/0037-oauth-audience.md for the reasoning. */
function audienceAccepts(audience: Resource, requested: Resource | null | undefined): boolean {
  if (!requested) return false; // the REST API is no OAuth resource
  // A per-agent token is that agent's key: on another MCP endpoint the route's rule answers 403, as for a key.
  if (audience.kind === 'agent') return true;
  return requested.url === audience.url;
}

export async function resolveAccessToken(deps: Deps, token: string, info: RequestInfo): Promise<Resolved> {
  const found = await findAccessTokenWithGrant(deps.db, hashOAuthId(token));
  if (!found || found.consumed_at) throw invalidToken();
  const { grant, role } = found;
  const payload = openStoredPayload(deps.sealers.oauthStore, found.payload);
  const audience =
    typeof payload.aud === 'string' && info.publicUrl ? parseResource(info.publicUrl, payload.aud) : null;
  if (!audience || audience.url !== grant.resource) throw invalidToken();
  if (!audienceAccepts(audience, info.resource)) {
    throw invalidToken(`This access token is for ${audience.url}; it is not accepted here`);
  }
  // Access ends when its grantor could no longer grant it: they left, lost their role, or the policy changed.
  if (!mayGrant(role, audience, found.agentKeyMinting)) {
    throw invalidToken('The person who granted this access may no longer grant it');
  }

  const offered = new Set(scopesOf(audience));
  const tokenScopes = new Set(String(payload.scope ?? '').split(' '));
  const scopes = grant.scopes.filter((s) => tokenScopes.has(s) && offered.has(s));

  recordGrantUsage(deps, grant.account_id, grant.id, now().getTime());
  const principal: KeyPrincipal = {
    type: 'key',
    accountId: grant.account_id,
    keyId: grant.id,
    keyType: audience.kind,
    agentId: audience.kind === 'agent' ? audience.agentId : null,
    scopes,
    spendCapCredits: null,
    oauth: { grantId: grant.id, clientId: grant.client_id, clientName: grant.client_name },
  };
  return { principal };
}

/** lastUsedAt to the minute, through this runtime's memo (src/platform/usage-memo.ts), as for keys. */
function recordGrantUsage(deps: Deps, accountId: string, grantId: string, at: number): void {
  if (!deps.usageMemos.grants.due(grantId, at)) return;
  touchGrantUsage(deps.db, accountId, grantId).catch((err: unknown) => {
    deps.usageMemos.grants.forget(grantId);
    deps.logger.warn({ err: (err as Error).message, grantId }, 'could not record OAuth grant usage');
  });
}
