import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Deps } from '../platform/deps.js';
import type { Access } from '../auth/access.js';
import type { AppContext, AppState, Handler } from './context.js';
import { guard } from './middleware/authenticate.js';
import { idempotency, type IdempotencyOptions } from './middleware/idempotency.js';
import { checkParams, paramRulesFor } from './path-params.js';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface RouteOptions {
  /** The route creates or spends: it honours Idempotency-Key (src/http/middleware/idempotency.ts). */
  idempotency?: IdempotencyOptions;
}

/** The option of a route that creates or spends; `redact` names the secrets its response shows once. */
export const idempotent = (...redact: string[]): RouteOptions => ({ idempotency: { redact } });

/**
 * The API router. Every route is registered with its access declaration, which is enforced by `guard` and
 * recorded in `declarations` so a test can prove that no route was added without one. Every path parameter is
 * judged by its rule (path-params.ts) after the guard and before the handler.
 */
export class ApiRouter {
  readonly router = new Router<AppState>();
  readonly declarations = new Map<string, Access>();
  /** The routes that honour Idempotency-Key, as "POST /v1/…". */
  readonly idempotentRoutes = new Set<string>();

  constructor(private readonly deps: Deps) {}

  get(path: string, access: Access, handler: Handler) { return this.add('get', path, access, handler); }
  post(path: string, access: Access, handler: Handler, opts: RouteOptions = {}) { return this.add('post', path, access, handler, opts); }
  patch(path: string, access: Access, handler: Handler) { return this.add('patch', path, access, handler); }
  put(path: string, access: Access, handler: Handler) { return this.add('put', path, access, handler); }
  delete(path: string, access: Access, handler: Handler) { return this.add('delete', path, access, handler); }

  /** For routes that hand the raw request to another library (MCP transport, bull-board). */
  use(path: string, access: Access, methods: Method[], middleware: Middleware) {
    for (const m of methods) this.add(m, path, access, middleware as unknown as Handler);
    return this;
  }

  private add(method: Method, path: string, access: Access, handler: Handler, opts: RouteOptions = {}) {
    const route = `${method.toUpperCase()} ${path}`;
    this.declarations.set(route, access);
    const rules = paramRulesFor(path);
    const routeName: Middleware<AppState> = async (ctx, next) => {
      ctx.state.routePath = path;
      await next();
    };
    // Parameters are judged after authentication (another tenant's probe learns nothing) and before any work,
    // the idempotency claim included.
    const judgeParams: Middleware<AppState> = async (ctx, next) => {
      checkParams(rules, (ctx as AppContext).params);
      await next();
    };
    const middleware: Array<Middleware<AppState>> = [routeName, guard(this.deps, access), judgeParams];
    if (opts.idempotency) {
      this.idempotentRoutes.add(route);
      middleware.push(idempotency(this.deps, opts.idempotency));
    }
    this.router[method](path, ...middleware, async (ctx) => {
      await handler(ctx as AppContext);
    });
    return this;
  }
}
