import { AppError } from '../platform/errors.js';
import type { Deps } from '../app/deps.js';
import type { Principal } from './principal.js';
import { resolveSession, SESSION_PREFIX } from './sessions.service.js';
import { looksLikeKey } from './key-secret.js';
import { resolveKey } from './key-resolve.js';
import { looksLikeAccessToken, resolveAccessToken } from './oauth-token-resolve.js';
import type { Resource } from '../oauth/resources.js';

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

/** Turns a bearer token into a principal, by its prefix. Every failure is a 401 of docs/decisions.md#error-shape. */
export async function resolveCredential(deps: Deps, token: string, info: RequestInfo): Promise<Resolved> {
  if (token.startsWith(SESSION_PREFIX)) return { principal: await resolveSession(deps, token) };
  if (looksLikeKey(token)) return resolveKey(deps, token, info);
  if (looksLikeAccessToken(token)) return resolveAccessToken(deps, token, info);
  throw new AppError('invalid_credential', 'The credential is not valid');
}
