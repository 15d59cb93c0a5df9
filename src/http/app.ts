import Koa from 'koa';
import type { Deps } from '../app/deps.js';
import { AppError } from '../platform/errors.js';
import type { AppState } from './context.js';
import { dashboardPages } from './dashboard/mount.js';
import { docsPage } from './docs.js';
import { createOpenStreams } from './event-stream.js';
import { createHttpMetrics } from './metrics.js';
import { errorRenderer } from './middleware/errors.js';
import { jsonBody } from './middleware/json-body.js';
import { originGuard } from './middleware/origin.js';
import { requestContext } from './middleware/request-context.js';
import { oauthServer } from './oauth/mount.js';
import { opsMiddleware } from './ops.js';
import { ApiRouter } from './router.js';
import { routeModules } from './routes/index.js';

/**
 * Builds the API. It does not listen: main.ts, web.ts and the tests decide where it runs. `publicUrl` is the
 * origin clients reach it at (PUBLIC_URL, else what the caller listens on): the OAuth issuer and resources.
 */
export function createApp(deps: Deps, opts: { publicUrl?: string } = {}) {
  const publicUrl = opts.publicUrl ?? deps.config.oauth.publicUrl ?? `http://localhost:${deps.config.port}`;
  const app = new Koa<AppState>();
  app.proxy = false; // client IPs are derived explicitly from TRUST_PROXY_HOPS (src/http/client-ip.ts)
  app.silent = true; // errors are rendered and logged by errorRenderer, never by koa's default handler
  app.context.openStreams = createOpenStreams();

  const metrics = createHttpMetrics();
  const api = new ApiRouter(deps);
  for (const register of routeModules) register(api, deps);

  app.use(requestContext(deps.logger, metrics));
  app.use(originGuard(publicUrl, deps.config.mcp.allowedOrigins));
  // The OAuth authorization server answers in its own formats (RFC errors, HTML pages), so it sits before the
  // JSON error renderer and body parser; every other request passes through it.
  app.use(oauthServer(deps, publicUrl));
  app.use(errorRenderer());
  app.use(opsMiddleware(deps, metrics));
  app.use(docsPage());
  app.use(dashboardPages(deps));
  app.use(jsonBody(deps.config.http.maxBodyBytes));
  app.use(api.router.routes());
  app.use(
    api.router.allowedMethods({
      throw: true,
      methodNotAllowed: () => new AppError('method_not_allowed', 'This method is not allowed on this path'),
      notImplemented: () => new AppError('method_not_allowed', 'This method is not implemented'),
    }),
  );

  return { app, api, metrics };
}
