import { responseChecker } from './openapi-check.js';

// A small client for the API under test: real HTTP via the global fetch. Every answer of an API route is checked
// against the served OpenAPI document (status listed, body matching its schema); a mismatch fails the call.

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** A raw body sent as-is (for malformed or oversize bodies). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** Skip the check against the OpenAPI document (for a request that is not an API call at all). */
  unchecked?: boolean;
}

async function checkAgainstDocument(baseUrl: string, method: string, path: string, res: ApiResponse): Promise<void> {
  let checker;
  try {
    checker = await responseChecker(baseUrl);
  } catch {
    return; // the document could not be fetched (a fault test's server is down): nothing to check against
  }
  const problems = checker.check(method, path, res.status, res.headers, res.body);
  if (problems.length > 0) throw new Error(`The answer does not match the OpenAPI document:\n${problems.join('\n')}`);
}

export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Buffer | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body: body as RequestInit['body'] });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON; keep the text
  }
  const answer = { status: res.status, headers: res.headers, body: parsed as T };
  if (!opts.unchecked) await checkAgainstDocument(baseUrl, method, path, answer);
  return answer;
}

/** A bound client: api.get('/v1/agents', { token }). */
export function client(baseUrl: string) {
  return {
    get: <T = any>(path: string, opts?: RequestOptions) => call<T>(baseUrl, 'GET', path, opts),
    post: <T = any>(path: string, opts?: RequestOptions) => call<T>(baseUrl, 'POST', path, opts),
    patch: <T = any>(path: string, opts?: RequestOptions) => call<T>(baseUrl, 'PATCH', path, opts),
    put: <T = any>(path: string, opts?: RequestOptions) => call<T>(baseUrl, 'PUT', path, opts),
    delete: <T = any>(path: string, opts?: RequestOptions) => call<T>(baseUrl, 'DELETE', path, opts),
  };
}

export type Client = ReturnType<typeof client>;

let counter = 0;
/** Signs up a fresh account and returns its owner's session token and ids. */
export async function signupAccount(api: Client, name = 'Acme') {
  counter += 1;
  const email = `owner${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await api.post('/v1/auth/signup', {
    body: { accountName: name, email, password: 'correct horse battery' },
  });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    token: res.body.session.token as string,
    accountId: res.body.account.id as string,
    userId: res.body.user.id as string,
    email,
    password: 'correct horse battery',
  };
}
