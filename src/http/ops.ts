import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { KoaAdapter } from '@bull-board/koa';
import type { Context, Middleware, Next } from 'koa';
import type { Deps } from '../app/deps.js';
import { AppError } from '../platform/errors.js';
import { renderMetrics } from '../platform/metrics.js';
import { everyQueue, type QueueName } from '../platform/queues.js';
import { drainingShards } from '../delivery/shard-registry.js';
import { basicAuthOk } from './basic-auth.js';
import type { AppState } from './context.js';
import type { HttpMetrics } from './metrics.js';
import { jsonBody } from './middleware/json-body.js';
import { selfOnlyPolicy } from './content-security-policy.js';

export const OPS_QUEUES_PATH = '/admin/queues';
export const OPS_METRICS_PATH = '/metrics';

const isOpsPath = (path: string) =>
  path === OPS_METRICS_PATH || path === OPS_QUEUES_PATH || path.startsWith(`${OPS_QUEUES_PATH}/`);

/**
 * The delivery queue is read-only in bull-board. Its jobs are not the deliveries: a delivery's row is the authority
 * and a job only carries its next attempt, so Retry on a completed job would do nothing ("already succeeded"), Retry
 * on a failed one would race the sweep, Promote would jump a subscription's throttle, and Clean or Remove
 * would leave a pending row to the sweep. Redelivering and recovering go through the API or the dashboard, which
 * schedule the delivery again through its state machine (docs/adr/0062-delivery-jobs-in-bull-board.md). With
 * WEBHOOK_SHARDS > 1 each partition is a queue of its own (`webhook-delivery-p0` …), each read-only.
 */
export const boardOptions = (queue: QueueName) =>
  queue === 'webhook-delivery'
    ? {
        readOnlyMode: true,
        description: 'Read-only: redeliver with POST /v1/webhooks/:id/deliveries/:deliveryId/redeliver or /dashboard',
      }
    : {};

// bull-board's page links its fonts from fonts.googleapis.com, so an operator's browser would tell a third party
// when and from where the queues are looked at. The link is dropped (the page falls back to the system sans-serif)
// and the policy keeps every page of the board to this origin, whatever a later bull-board links to. Its page has
// inline styles and a JSON data block, no inline script.
const FOREIGN_LINK = /<link\b[^>]*\bhref="(?:https?:)?\/\/[^"]*"[^>]*>\s*/g;
const BOARD_CSP = selfOnlyPolicy("'self'");

/** Serves a bull-board request, its page without links to other origins. */
async function serveBoard(board: Middleware, ctx: Context, next: Next): Promise<void> {
  await board(ctx, next);
  ctx.set('Content-Security-Policy', BOARD_CSP);
  if (typeof ctx.body === 'string' && ctx.response.is('html')) ctx.body = ctx.body.replace(FOREIGN_LINK, '');
}

/**
 * bull-board and Prometheus metrics, behind HTTP Basic. When OPS_USERNAME/OPS_PASSWORD are unset both paths
 * answer 404, as if they did not exist.
 */
export function opsMiddleware(deps: Deps, metrics: HttpMetrics): Middleware<AppState> {
  const ops = deps.config.ops;
  const readJson = jsonBody(deps.config.http.maxBodyBytes);
  let board: Middleware | null = null;
  let showDraining = async () => undefined as void;
  if (ops) {
    const adapter = new KoaAdapter();
    adapter.setBasePath(OPS_QUEUES_PATH);
    const current = everyQueue(deps.queues).map(({ name, queue }) => new BullMQAdapter(queue, boardOptions(name)));
    const { replaceQueues } = createBullBoard({ queues: current, serverAdapter: adapter });
    board = adapter.registerPlugin() as unknown as Middleware;
    // Partitions of an earlier WEBHOOK_SHARDS are shown while they still hold jobs to run, named with their
    // prefix (their queue names may repeat this K's).
    showDraining = async () => {
      const draining = await drainingShards(deps).catch(() => []);
      replaceQueues([
        ...current,
        ...draining.map(
          ({ partition, queue }) =>
            new BullMQAdapter(queue, {
              ...boardOptions('webhook-delivery'),
              prefix: `${partition.prefix}:`,
              description: 'Read-only, draining: a delivery shard of an earlier WEBHOOK_SHARDS',
            }),
        ),
      ]);
    };
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
    if (ctx.path.startsWith(`${OPS_QUEUES_PATH}/api/`)) await showDraining();
    // The board's JSON bodies are read by the API's reader (bull-board's own parser then leaves them alone): its
    // refusals are the API's, where bull-board's answers a body over its limit with a 500.
    await readJson(ctx, () => serveBoard(board, ctx, next));
  };
}
