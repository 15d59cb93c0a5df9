import { AppError } from '../../platform/errors.js';
import { resourceOfPath, scopesOf } from '../../oauth/resources.js';

// WWW-Authenticate challenges for the MCP endpoints (RFC 6750 §3, RFC 9728 §5.1): a 401 names the protected
// resource metadata, so an OAuth-capable MCP client can discover the authorization server and start a flow.

export const protectedResourceMetadataUrl = (publicUrl: string, path: string): string =>
  `${publicUrl}/.well-known/oauth-protected-resource${path}`;

/** Header parameters are quoted strings; our values (URLs, scope names) never hold a quote or backslash. */
const param = (name: string, value: string) => `${name}="${value.replace(/["\\]/g, '')}"`;

export function bearerChallenge(params: Array<[string, string | undefined]>): string {
  const parts = params.filter(([, v]) => v !== undefined).map(([k, v]) => param(k, v!));
  return parts.length ? `Bearer ${parts.join(', ')}` : 'Bearer';
}

/**
 * A step-up on an MCP endpoint (MCP authorization, "Scope Challenge Handling"; RFC 6750 §3.1): 403 naming the
 * scope the call needs and the resource metadata, so the client can re-authorize its user for it.
 */
export function withScopeChallenge(err: AppError, publicUrl: string, path: string): AppError {
  const challenge = bearerChallenge([
    ['error', 'insufficient_scope'],
    ['scope', String(err.details?.requiredScope ?? '')],
    ['resource_metadata', protectedResourceMetadataUrl(publicUrl, path)],
  ]);
  return new AppError(err.code, err.message, err.details, { ...err.headers, 'WWW-Authenticate': challenge });
}

/**
 * A 401 on an MCP endpoint, with the challenge that points at its resource metadata and the scopes it offers.
 * Without any credential there is no error code (RFC 6750 §3.1); with a bad one, invalid_token. Other errors
 * and other paths come back unchanged.
 */
export function withResourceChallenge(err: unknown, publicUrl: string, path: string): unknown {
  if (!(err instanceof AppError) || err.status !== 401) return err;
  const resource = resourceOfPath(publicUrl, path);
  if (!resource) return err;
  const challenge = bearerChallenge([
    ['resource_metadata', protectedResourceMetadataUrl(publicUrl, path)],
    ['scope', scopesOf(resource).join(' ')],
    ['error', err.code === 'missing_credential' ? undefined : 'invalid_token'],
  ]);
  return new AppError(err.code, err.message, err.details, { ...err.headers, 'WWW-Authenticate': challenge });
}
