import { readBody } from './body.js';
import { connectionError, errorOfAnswer } from './errors.js';
import { OPERATIONS } from './generated/operations.js';
import { isRetriable, RETRY_DEFAULTS, retryAfterSeconds, retryDelayMs, sleep, type RetryOptions } from './retry.js';
import type { OperationId, Operations } from './types.js';

// The client: one method per operation of the API (generated/operations.ts), each one fetch() away from its
// route. Nothing here needs more than fetch, URL, Headers, setTimeout and crypto.randomUUID, so it runs on Node
// 20 and on runtimes that have only the web's globals (browsers, edge workers, Deno, Bun).

export interface ClientOptions {
  /** Where the API is, e.g. https://switchboard.example.com (no trailing /v1). */
  baseUrl: string;
  /** A credential sent as `Authorization: Bearer …`: an account key, a session token, an OAuth access token. */
  token?: string;
  /** Headers sent with every call. */
  headers?: Record<string, string>;
  /** Another fetch (a proxy's, a test's); globalThis.fetch by default. */
  fetch?: typeof fetch;
  retry?: RetryOptions;
}

export type SwitchboardClient = Operations & {
  /** The options it was made with, base URL without a trailing slash. */
  readonly baseUrl: string;
};

interface AnyArgs {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

interface Operation {
  method: string;
  path: string;
  idempotencyKey: boolean;
}

function urlOf(baseUrl: string, op: Operation, args: AnyArgs): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = args.path?.[name];
    if (value === undefined) throw new TypeError(`${op.method} ${op.path}: path.${name} is required`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(baseUrl + path);
  for (const [name, value] of Object.entries(args.query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(one));
  }
  return url.href;
}

export function createClient(options: ClientOptions): SwitchboardClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const retry = { ...RETRY_DEFAULTS, ...options.retry };

  async function call(op: Operation, args: AnyArgs = {}): Promise<unknown> {
    const url = urlOf(baseUrl, op, args);
    const headers = new Headers({ accept: 'application/json', ...options.headers, ...args.headers });
    if (options.token) headers.set('authorization', `Bearer ${options.token}`);
    if (args.body !== undefined) headers.set('content-type', 'application/json');
    const keyed = op.idempotencyKey;
    if (keyed) headers.set('idempotency-key', args.idempotencyKey ?? globalThis.crypto.randomUUID());
    const init: RequestInit = {
      method: op.method,
      headers,
      body: args.body === undefined ? undefined : JSON.stringify(args.body),
      signal: args.signal,
    };
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await doFetch(url, init);
      } catch (err) {
        if (args.signal?.aborted) throw err;
        throw connectionError(err);
      }
      if (res.ok) return res.status === 204 ? undefined : readBody(res);
      const after = retryAfterSeconds(res.headers.get('retry-after'), Date.now());
      const body = await readBody(res);
      const wait =
        attempt < retry.maxRetries && isRetriable(op.method, res.status, keyed)
          ? retryDelayMs(attempt + 1, after, Math.random(), retry.maxDelayMs)
          : null;
      if (wait === null) throw errorOfAnswer(res.status, res.headers, body, after);
      await sleep(wait, args.signal);
    }
  }

  const methods = Object.fromEntries(
    Object.entries(OPERATIONS).map(([id, op]) => [id, (args?: AnyArgs) => call(op, args)]),
  ) as Record<OperationId, unknown>;
  return { ...(methods as Operations), baseUrl };
}
