import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { Deps } from '../app/deps.js';
import { describeCode, type ErrorCode } from '../platform/errors.js';
import { StartupError } from '../platform/local-services.js';
import { renderMetrics } from '../platform/metrics.js';
import { basicAuthOk } from './basic-auth.js';
import { OPS_METRICS_PATH } from './ops.js';

// A worker process has no API port. METRICS_PORT gives it a small one: /metrics behind the ops credentials (as on
// the API), and /healthz, unauthenticated, for a container healthcheck: 200 while its workers run, 503 once they
// stop. Plain node:http, no koa: nothing else is served here.

export interface RunningMetricsServer {
  url: string;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, code: ErrorCode, message: string, headers?: Record<string, string>): void {
  const { status, type } = describeCode(code);
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  sendJson(res, status, { error: { type, code, message, requestId } }, { 'x-request-id': requestId, ...headers });
}

export async function startMetricsServer(
  deps: Deps,
  port: number,
  healthy: () => boolean,
): Promise<RunningMetricsServer> {
  const ops = deps.config.ops;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendError(res, 'method_not_allowed', 'Only GET is served here');
    }
    if (path === '/healthz') {
      const ok = healthy();
      return sendJson(res, ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable' });
    }
    if (path !== OPS_METRICS_PATH || !ops) return sendError(res, 'not_found', `No route for ${req.method} ${path}`);
    if (!basicAuthOk(req.headers.authorization ?? '', ops.username, ops.password)) {
      return sendError(res, 'invalid_credential', 'Operator credentials required', {
        'www-authenticate': 'Basic realm="switchboard-ops", charset="UTF-8"',
      });
    }
    renderMetrics([deps.metrics.registry]).then(
      (scrape) => {
        res.writeHead(200, { 'content-type': scrape.contentType, 'cache-control': 'no-store' });
        res.end(scrape.body);
      },
      (err: Error) => {
        // A queue gauge reads Redis: with Redis away the scrape fails, and says so.
        deps.logger.warn({ err: err.message }, 'metrics scrape failed');
        sendError(res, 'unavailable', 'Metrics could not be read (Redis unavailable)');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: Error & { code?: string }) => {
      reject(
        err.code === 'EADDRINUSE' || err.code === 'EACCES'
          ? new StartupError(`METRICS_PORT ${port} is not available (${err.code}): set METRICS_PORT to a free port`)
          : err,
      );
    });
    server.listen(port, deps.config.host, () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const host = deps.config.host === '0.0.0.0' || deps.config.host === '::' ? '127.0.0.1' : deps.config.host;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
