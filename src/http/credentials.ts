import { AppError } from '../platform/errors.js';
import type { Deps } from '../app/deps.js';
import type { RequestInfo, Resolved } from '../auth/principal.js';
import { resolveSession, SESSION_PREFIX } from '../accounts/sessions.service.js';
import { looksLikeKey } from '../auth/key-secret.js';
import { resolveKey } from '../keys/key-resolve.js';
import { looksLikeAccessToken, resolveAccessToken } from '../oauth/oauth-token-resolve.js';

/** Turns a bearer token into a principal, by its prefix. Every failure is a 401 (docs/adr/0001-error-shape.md). */
export async function resolveCredential(deps: Deps, token: string, info: RequestInfo): Promise<Resolved> {
  if (token.startsWith(SESSION_PREFIX)) return { principal: await resolveSession(deps, token) };
  if (looksLikeKey(token)) return resolveKey(deps, token, info);
  if (looksLikeAccessToken(token)) return resolveAccessToken(deps, token, info);
  throw new AppError('invalid_credential', 'The credential is not valid');
}
