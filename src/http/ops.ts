import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { KoaAdapter } from '@bull-board/koa';
import type { Middleware } from 'koa';
import type { Deps } from '../app/deps.js';
import { safeEqual } from '../platform/crypto.js';
import { AppError } from '../platform/errors.js';
import { QUEUE_NAMES } from '../platform/queues.js';
import type { AppState } from './context.js';
import type { HttpMetrics } from './metrics.js';

export const OPS_QUEUES_PATH = '/admin/queues';
export const OPS_METRICS_PATH = '/metrics';

const isOpsPath = (path: string) => path === OPS_METRICS_PATH || path === OPS_QUEUES_PATH || path.startsWith(`${OPS_QUEUES_PATH}/`);

/** Both credentials are compared in constant time, and both are always compared. */
function basicAuthOk(header: string, username: string, password: string): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!match) return false;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const sep = decoded.indexOf(':');
  if (sep < 0) return false;
  const userOk = safeEqual(decoded.slice(0, sep), username);
  const passOk = safeEqual(decoded.slice(sep + 1), password);
  return userOk && passOk;
}

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
    createBullBoard({ queues: QUEUE_NAMES.map((name) => new BullMQAdapter(deps.queues[name])), serverAdapter: adapter });
    board = adapter.registerPlugin() as unknown as Middleware;
  }

  return async (ctx, next) => {
    if (!isOpsPath(ctx.path)) return next();
    if (!ops || !board) throw new AppError('not_found', `No route for ${ctx.method} ${ctx.path}`);
    ctx.state.routePath = ctx.path === OPS_METRICS_PATH ? OPS_METRICS_PATH : OPS_QUEUES_PATH;
    if (!basicAuthOk(ctx.get('authorization'), ops.username, ops.password)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Basic realm="switchboard-ops", charset="UTF-8"');
      ctx.body = { error: { type: 'authentication_error', code: 'invalid_credential', message: 'Operator credentials required', requestId: ctx.state.requestId } };
      return;
    }
    if (ctx.path === OPS_METRICS_PATH) {
      ctx.set('Content-Type', metrics.registry.contentType);
      ctx.body = await metrics.registry.metrics();
      return;
    }
    await board(ctx, next);
  };
}
