import type { Context } from 'koa';

// The dashboard and the portal act only through the service's own HTTP API: each page handler sends the API
// request a client would send, to this same server over loopback, with the signed-in person's session token (or
// the portal's scoped credential) as its Bearer. Authentication, authorization, validation, idempotency and audit
// are the API's; the pages add none of their own (docs/adr/0059-dashboard-api.md).

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

export interface ApiError {
  code: string;
  message: string;
  fields: Array<{ field: string; message: string }>;
}

/** Where this server is reachable from itself: the local address and port the browser's request came in on. */
export function loopbackOrigin(ctx: Context): string {
  const socket = ctx.req.socket;
  let host = socket.localAddress ?? '127.0.0.1';
  if (host.startsWith('::ffff:')) host = host.slice(7);
  if (host === '::' || host === '0.0.0.0') host = '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${socket.localPort}`;
}

export type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<ApiAnswer<T>>;

export function apiFor(ctx: Context, bearer: string): Api {
  const origin = loopbackOrigin(ctx);
  const requestId = String(ctx.state.requestId ?? '');
  return async <T>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>> => {
    const res = await fetch(origin + path, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(requestId ? { 'x-request-id': requestId } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      redirect: 'manual',
    });
    return { status: res.status, body: (await jsonOrNull(res)) as T };
  };
}

/** Every API answer is JSON; one that is not (a proxy's page) is read as no body, and its status still speaks. */
async function jsonOrNull(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The API's error body as the pages show it: its message, and each field's message next to that field. */
interface ErrorBody {
  error?: { code?: string; message?: string; details?: { fields?: ApiError['fields'] } };
}

export function errorOf(answer: ApiAnswer): ApiError {
  const err = (answer.body as ErrorBody | null)?.error ?? {};
  return {
    code: String(err.code ?? 'error'),
    message: String(err.message ?? `The API answered ${answer.status}`),
    fields: Array.isArray(err.details?.fields) ? err.details.fields : [],
  };
}
