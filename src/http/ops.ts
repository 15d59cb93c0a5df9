import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { KoaAdapter } from '@bull-board/koa';
import type { Middleware } from 'koa';
import type { Deps } from '../app/deps.js';
import { AppError } from '../platform/errors.js';
import { renderMetrics } from '../platform/metrics.js';
import { QUEUE_NAMES } from '../platform/queues.js';
import { basicAuthOk } from './basic-auth.js';
import type { AppState } from './context.js';
import type { HttpMetrics } from './metrics.js';

export const OPS_QUEUES_PATH = '/admin/queues';
export const OPS_METRICS_PATH = '/metrics';

const isOpsPath = (path: string) =>
  path === OPS_METRICS_PATH || path === OPS_QUEUES_PATH || path.startsWith(`${OPS_QUEUES_PATH}/`);

/**
 * bull-board and Prometheus metrics, behind HTTP Basic. When OPS_USERNAME/OPS_PASSWORD are unset both paths
 * answer 404, as if they did not exist.
 */
export function opsMiddleware(deps: Deps, metrics: HttpMetrics): Middleware<AppState> {
  const ops = deps.config.ops;
  let board: Middleware | null = null;
  if (ops) {
    const adapter = new KoaAdapter();
    adapter.setBasePath(OPS_QUEUES_PATH);
    createBullBoard({
      queues: QUEUE_NAMES.map((name) => new BullMQAdapter(deps.queues[name])),
      serverAdapter: adapter,
    });
    board = adapter.registerPlugin() as unknown as Middleware;
  }

  return async (ctx, next) => {
    if (!isOpsPath(ctx.path)) return next();
    if (!ops || !board) throw new AppError('not_found', `No route for ${ctx.method} ${ctx.path}`);
    ctx.state.routePath = ctx.path === OPS_METRICS_PATH ? OPS_METRICS_PATH : OPS_QUEUES_PATH;
    if (!basicAuthOk(ctx.get('authorization'), ops.username, ops.password)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Basic realm="switchboard-ops", charset="UTF-8"');
      ctx.body = {
        error: {
          type: 'authentication_error',
          code: 'invalid_credential',
          message: 'Operator credentials required',
          requestId: ctx.state.requestId,
        },
      };
      return;
    }
    if (ctx.path === OPS_METRICS_PATH) {
      const scrape = await renderMetrics([deps.metrics.registry, metrics.registry]);
      ctx.set('Content-Type', scrape.contentType);
      ctx.body = scrape.body;
      return;
    }
    await board(ctx, next);
  };
}
