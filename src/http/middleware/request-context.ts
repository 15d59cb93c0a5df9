import type { Middleware } from 'koa';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../platform/logger.js';
import type { AppState } from '../context.js';
import type { HttpMetrics } from '../metrics.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** A portal page's path carries its link's token (/portal/ca_portal_…): the log keeps the prefix only. */
const PORTAL_TOKEN = /ca_portal_[^/]*/g;
export const loggedPath = (path: string): string => path.replace(PORTAL_TOKEN, 'ca_portal_…');

/** Request id (echoed when the client's is sane), a child logger, one access log line and the duration metric. */
export function requestContext(logger: Logger, metrics: HttpMetrics): Middleware<AppState> {
  return async (ctx, next) => {
    const given = ctx.get('x-request-id');
    const requestId = SANE_REQUEST_ID.test(given) ? given : `req_${randomUUID().replaceAll('-', '')}`;
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = ctx.state.routePath ?? 'unmatched';
      metrics.observe(ctx.method, route, ctx.status, seconds);
      // The path without its query (where a client may put a token) and without a portal token; route is the
      // template metrics group by.
      const durationMs = Math.round(seconds * 1000);
      ctx.state.log.info(
        {
          method: ctx.method,
          path: loggedPath(ctx.path),
          route,
          status: ctx.status,
          durationMs,
        },
        'request',
      );
    }
  };
}
