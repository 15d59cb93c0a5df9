import type { Middleware } from 'koa';
import type { Deps } from '../../app/deps.js';
import type { AppState } from '../context.js';
import { DASHBOARD_PATH } from './session.js';

const PORTAL_PATH = '/portal';
import { portalRouter } from './portal-pages.js';
import { dashboardRouter } from './routes.js';

/**
 * The dashboard's and the portal's pages, served before the API's JSON body parser and router: they read forms, answer HTML, and
 * are not API operations (not in the router's declarations nor in /openapi.json). A path under /dashboard that
 * no page answers falls through to the API's 404.
 */
export function dashboardPages(deps: Deps): Middleware<AppState> {
  const routes = dashboardRouter(deps);
  const portal = portalRouter(deps);
  return async (ctx, next) => {
    if (ctx.path === DASHBOARD_PATH || ctx.path.startsWith(`${DASHBOARD_PATH}/`)) {
      ctx.state.routePath = DASHBOARD_PATH;
      return routes(ctx, next);
    }
    if (ctx.path.startsWith(`${PORTAL_PATH}/`)) {
      ctx.state.routePath = PORTAL_PATH; // never the path itself: it holds the link's token
      return portal(ctx, next);
    }
    return next();
  };
}
