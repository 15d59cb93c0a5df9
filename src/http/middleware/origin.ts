import type { Middleware } from 'koa';
import { AppError } from '../../platform/errors.js';
import type { AppState } from '../context.js';
import { writeError } from './errors.js';

// DNS rebinding: a page on a foreign site whose host name now resolves to this server reaches it with that
// site's Origin. The MCP transport (2025-11-25, "Security Warning") says a server MUST answer 403 to a present,
// invalid Origin; the same holds for the OAuth endpoints that mint the credentials. A request without an Origin
// (a native client, a top-level navigation) is not a browser's cross-site request and passes.

const MCP = /^\/v1\/(?:agents\/[^/]+\/)?mcp$/;
const OAUTH = /^\/(?:oauth(?:\/.*)?|\.well-known\/(?:oauth-[a-z-]+|openid-configuration)(?:\/.*)?)$/;

export const isMcpOrOAuthPath = (path: string): boolean => MCP.test(path) || OAUTH.test(path);

/** 403 origin_not_allowed for a foreign Origin on an MCP or OAuth endpoint; allowed: PUBLIC_URL's and `extra`. */
export function originGuard(publicUrl: string, extra: readonly string[]): Middleware<AppState> {
  const allowed = new Set([new URL(publicUrl).origin, ...extra]);
  return async (ctx, next) => {
    const origin = ctx.get('origin');
    if (!origin || allowed.has(origin) || !isMcpOrOAuthPath(ctx.path)) return next();
    writeError(ctx, new AppError('origin_not_allowed', 'Requests from this Origin are not accepted here'));
  };
}
