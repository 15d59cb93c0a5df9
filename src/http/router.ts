import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Deps } from '../app/deps.js';
import type { Access } from '../auth/access.js';
import type { AppContext, AppState, Handler } from './context.js';
import { guard } from './middleware/authenticate.js';
import { idempotency, type IdempotencyOptions } from './middleware/idempotency.js';
import type { RouteDoc } from './openapi/route-doc.js';
import { checkParams, paramRulesFor, type ParamRule } from './path-params.js';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** One registered route, as the OpenAPI document describes it. */
export interface RouteRecord {
  method: Method;
  path: string;
  access: Access;
  doc: RouteDoc;
  params: ParamRule[];
  idempotent: boolean;
}

export interface RouteOptions {
  /** The route creates or spends: it honours Idempotency-Key (src/http/middleware/idempotency.ts). */
  idempotency?: IdempotencyOptions;
  /**
   * Another spelling of the path that answers exactly as the route does (same access, parameters, idempotency and
   * handler). The OpenAPI document lists only the route's own path (docs/adr/0047-key-route-spelling.md).
   */
  alias?: string;
}

/** The option of a route that creates or spends; `redact` names the secrets its response shows once. */
export const idempotent = (...redact: string[]): RouteOptions => ({ idempotency: { redact } });

/**
 * The API router. Every route is registered with its access declaration, which is enforced by `guard` and
 * recorded in `declarations` so a test can prove that no route was added without one. Every path parameter is
 * judged by its rule (path-params.ts) after the guard and before the handler. Every route also carries its
 * OpenAPI metadata (`RouteDoc`), recorded in `routes`, from which GET /openapi.json is built.
 */
export class ApiRouter {
  readonly router = new Router<AppState>();
  readonly declarations = new Map<string, Access>();
  /** The routes that honour Idempotency-Key, as "POST /v1/…". */
  readonly idempotentRoutes = new Set<string>();
  /** Every route with its OpenAPI metadata, in registration order. */
  readonly routes: RouteRecord[] = [];
  /** Each alias ("POST /v1/…") with the route it answers for; aliases are in `declarations`, not in `routes`. */
  readonly aliases = new Map<string, string>();

  constructor(private readonly deps: Deps) {}

  get(path: string, access: Access, doc: RouteDoc, handler: Handler) {
    return this.add('get', path, access, doc, handler);
  }
  post(path: string, access: Access, doc: RouteDoc, handler: Handler, opts: RouteOptions = {}) {
    return this.add('post', path, access, doc, handler, opts);
  }
  patch(path: string, access: Access, doc: RouteDoc, handler: Handler) {
    return this.add('patch', path, access, doc, handler);
  }
  put(path: string, access: Access, doc: RouteDoc, handler: Handler) {
    return this.add('put', path, access, doc, handler);
  }
  delete(path: string, access: Access, doc: RouteDoc, handler: Handler) {
    return this.add('delete', path, access, doc, handler);
  }

  private add(method: Method, path: string, access: Access, doc: RouteDoc, handler: Handler, opts: RouteOptions = {}) {
    const route = `${method.toUpperCase()} ${path}`;
    this.declarations.set(route, access);
    const rules = paramRulesFor(path);
    this.routes.push({ method, path, access, doc, params: rules, idempotent: Boolean(opts.idempotency) });
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
    const run: Middleware<AppState> = async (ctx) => {
      await handler(ctx as AppContext);
    };
    this.router[method](path, ...middleware, run);
    if (opts.alias) {
      const alias = `${method.toUpperCase()} ${opts.alias}`;
      const names = (list: ParamRule[]) => list.map((r) => r.name).join();
      if (names(paramRulesFor(opts.alias)) !== names(rules)) {
        throw new Error(`${alias}: an alias takes the parameters of ${route}`);
      }
      this.declarations.set(alias, access);
      this.aliases.set(alias, route);
      if (opts.idempotency) this.idempotentRoutes.add(alias);
      // routeName records the route's own path: logs and metrics count both spellings as one route.
      this.router[method](opts.alias, ...middleware, run);
    }
    return this;
  }
}
