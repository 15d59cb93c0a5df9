import type { Middleware } from 'koa';
import type { Deps } from '../../app/deps.js';
import { AppError } from '../../platform/errors.js';
import { authorize, type Access } from '../../auth/access.js';
import { resolveCredential } from '../credentials.js';
import { isKeyOutcome } from '../../keys/key-usage.js';
import type { Caller, Principal } from '../../auth/principal.js';
import { resourceOfPath } from '../../oauth/resources.js';
import { clientIp } from '../client-ip.js';
import { withResourceChallenge } from '../oauth/challenge.js';
import type { AppContext, AppState } from '../context.js';

export function bearerToken(ctx: { get(name: string): string }): string {
  const header = ctx.get('authorization');
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw new AppError('missing_credential', 'Send a credential as "Authorization: Bearer <API_KEY>"');
  return match[1]!;
}

/** Resolves the request's credential into a principal (once per request) and applies its response headers. */
export async function authenticate(deps: Deps, ctx: AppContext): Promise<Principal> {
  if (ctx.state.principal) return ctx.state.principal;
  const { publicUrl } = ctx.state;
  const ip = clientIp(ctx, deps.config.trustProxyHops);
  const resolved = await resolveCredential(deps, bearerToken(ctx), {
    ip,
    publicUrl,
    resource: resourceOfPath(publicUrl, ctx.path),
  });
  for (const [name, value] of Object.entries(resolved.headers ?? {})) ctx.set(name, value);
  ctx.state.principal = resolved.principal;
  ctx.state.clientIp = ip;
  // ctx.state.log is this request's own child logger (request-context.ts), so the binding is added in place:
  // a child of that fresh child costs several µs per request (V8 turns the fresh object into a prototype).
  ctx.state.log.setBindings({ accountId: resolved.principal.accountId });
  return resolved.principal;
}

/** Enforces a route's access declaration before its handler runs. */
export function guard(deps: Deps, access: Access): Middleware<AppState> {
  return async (ctx, next) => {
    if (access.kind === 'public') return next();
    let principal: Principal | undefined;
    try {
      principal = await authenticate(deps, ctx as AppContext);
      authorize(principal, access, (ctx as AppContext).params ?? {});
    } catch (err) {
      if (principal) countOutcome(deps, principal, err);
      throw withResourceChallenge(err, ctx.state.publicUrl, ctx.path);
    }
    if (principal.type !== 'key' || principal.oauth) return next();
    try {
      await next();
      countOutcome(deps, principal, undefined);
    } catch (err) {
      countOutcome(deps, principal, err);
      throw err;
    }
  };
}

/**
 * A key's request counts once in its usage: as the refusal it met (authorization here, a spend cap or rate limit
 * in its handler), else as valid. Refusals while the key authenticates are counted by src/keys/key-resolve.ts.
 */
function countOutcome(deps: Deps, principal: Principal, err: unknown): void {
  if (principal.type !== 'key' || principal.oauth) return;
  const code = err instanceof AppError && isKeyOutcome(err.code) ? err.code : 'valid';
  deps.keyUsage.count(principal.accountId, principal.keyId, code);
}

/** The principal of a guarded route; a handler on a public route never calls this. */
export function principalOf(ctx: AppContext): Principal {
  const principal = ctx.state.principal;
  if (!principal) throw new Error('principalOf called on a route without authentication');
  return principal;
}

/** The caller of a guarded route, as every service that changes data takes it. */
export function callerOf(ctx: AppContext): Caller {
  return { principal: principalOf(ctx), ip: ctx.state.clientIp ?? null };
}
