import type { Access } from '../../src/auth/access.js';
import { describeCode, type ErrorCode } from '../../src/platform/errors.js';
import { RawConnection, type RawResponse } from '../helpers/raw-http.js';
import { rand, requestSeed } from './random.js';
import { buildRequest, type FuzzRequest } from './requests.js';
import type { World } from './world.js';

// Sends the requests over a few kept-alive raw connections and judges every answer. A request that gets no
// whole answer within the timeout is a failure, like a 5xx.

export interface FuzzOptions {
  url: string;
  seed: number;
  count: number;
  concurrency: number;
  timeoutMs: number;
  routes: Array<[method: string, path: string, access: Access]>;
  world: World;
  onProgress?: (done: number) => void;
}

export interface Failure {
  index: number;
  reason: string;
  request: string;
  response?: string;
}

export interface FuzzReport {
  count: number;
  unanswered: number;
  serverErrors: number;
  statuses: Record<number, number>;
  failures: Failure[];
  durationMs: number;
  /** Time spent waiting for answers, by route: where a run's time goes. */
  msByRoute: Record<string, number>;
}

// What must never reach a client: stack frames, source paths, SQL and the database's own messages.
const LEAKS = [
  /\n\s+at\s/,
  /\bat (?:async )?[\w$.<>]+ \([^)]*:\d+:\d+\)/,
  /node_modules/,
  /\/src\/[\w/-]+\.ts/,
  /\b(?:select|insert into|delete from|update)\b[^"]{0,200}\b(?:from|values|set|where)\b/i,
  /invalid input syntax|violates (?:foreign key|unique|not-null|check) constraint|SQLSTATE|relation "|knex:|ECONNREFUSED/,
];

/** The reasons an answer breaks docs/adr/0001-error-shape.md, or [] when it keeps it. */
export function judge(req: FuzzRequest, res: RawResponse): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}`);
  const requestId = res.headers['x-request-id'];
  if (!requestId) problems.push('no X-Request-Id');
  // A HEAD answer has no body to judge (RFC 9110 §9.3.2).
  if (res.status >= 400 && req.method !== 'HEAD') {
    const error = res.json?.error;
    const isContract =
      error &&
      typeof error.message === 'string' &&
      typeof error.type === 'string' &&
      error.requestId === requestId &&
      (() => {
        try {
          return describeCode(error.code as ErrorCode)?.status === res.status;
        } catch {
          return false;
        }
      })();
    // The MCP endpoints answer protocol errors (a wrong Accept, a request that is not JSON-RPC) in JSON-RPC's shape.
    const isJsonRpc =
      req.route.includes('/mcp') && res.json?.jsonrpc === '2.0' && typeof res.json?.error?.code === 'number';
    if (!isContract && !isJsonRpc) problems.push(`error not in the contract shape: ${res.text.slice(0, 200)}`);
  }
  // GET /openapi.json names every error code, internal_error included: a document, not an error.
  if (!req.route.endsWith(' /openapi.json') && res.text.includes('"internal_error"'))
    problems.push('internal_error (an MCP tool error is a 500 in disguise)');
  for (const leak of LEAKS) if (leak.test(res.text)) problems.push(`leaks ${leak}`);
  return problems;
}

export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const report: FuzzReport = {
    count: opts.count,
    unanswered: 0,
    serverErrors: 0,
    statuses: {},
    failures: [],
    durationMs: 0,
    msByRoute: {},
  };
  let next = 0;
  let done = 0;

  const worker = async () => {
    let conn: RawConnection | null = null;
    for (let index = next++; index < opts.count; index = next++) {
      const r = rand(requestSeed(opts.seed, index));
      const [method, path, access] = r.pick(opts.routes);
      const req = buildRequest(r, opts.world, method, path, access);
      conn ??= await RawConnection.open(opts.url);
      const sending = conn.send(req);
      const sentAt = Date.now();
      let res: RawResponse;
      try {
        res = await conn.read(opts.timeoutMs, { head: req.method === 'HEAD' });
        report.msByRoute[req.route] = (report.msByRoute[req.route] ?? 0) + Date.now() - sentAt;
      } catch (err) {
        report.unanswered++;
        report.failures.push({ index, reason: `unanswered: ${(err as Error).message}`, request: req.summary });
        conn.close();
        conn = null;
        continue;
      } finally {
        void sending;
        opts.onProgress?.(++done);
      }
      report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1;
      if (res.status >= 500) report.serverErrors++;
      const problems = judge(req, res);
      if (problems.length)
        report.failures.push({
          index,
          reason: problems.join('; '),
          request: req.summary,
          response: res.text.slice(0, 300),
        });
      // A logout or a deleted key ends a credential the fuzz needs: mint it again, then go on.
      if (res.status === 401 && req.credential !== 'none' && req.credential !== 'garbage')
        await opts.world.refresh(req.credential);
      if (res.headers.connection === 'close' || conn.ended) {
        conn.close();
        conn = null;
      }
    }
    conn?.close();
  };

  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  report.durationMs = Date.now() - started;
  return report;
}
