import { createHash, randomBytes } from 'node:crypto';

// OAuth by hand over real HTTP, for the tests that need a token quickly or a request a well-behaved client
// never sends (no PKCE, `plain`, a foreign redirect URI). The browser test drives the same pages in chromium.

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function registerClient(baseUrl: string, body: Record<string, unknown> = {}) {
  const res = await fetch(`${baseUrl}/oauth/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test client',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...body,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** A cookie jar of name=value pairs, enough for the authorization server's cookies on one host. */
export class Browserless {
  private cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async request(url: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(new URL(url, this.baseUrl), { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, location: res.headers.get('location'), headers: res.headers, text: await res.text() };
  }

  /** Follows redirects on our own origin; stops at the first that leaves it (the client's redirect URI). */
  async follow(url: string, init: RequestInit = {}) {
    let res = await this.request(url, init);
    while (res.status >= 300 && res.status < 400 && res.location) {
      const next = new URL(res.location, this.baseUrl);
      if (next.origin !== new URL(this.baseUrl).origin) return { ...res, location: next.href };
      res = await this.request(next.href);
    }
    return res;
  }

  postForm(url: string, fields: Array<[string, string]>) {
    return this.follow(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

export const formAction = (html: string) =>
  /<form method="post" action="([^"]+)"/
    .exec(html)?.[1]
    ?.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
export const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];

export function authorizeUrl(baseUrl: string, params: Record<string, string | undefined>) {
  const url = new URL(`${baseUrl}/oauth/auth`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    code_challenge_method: 'S256',
    ...params,
  })) {
    if (v !== undefined) url.searchParams.set(k, v);
  }
  return url.href;
}

export interface FlowInput {
  clientId: string;
  resource: string;
  scope: string;
  email: string;
  password: string;
  /** Scopes ticked on the consent page. */
  choose: string[];
}

/** Sign in and consent without a browser; returns the code (or error) the client's redirect URI receives. */
export async function authorizeByHand(baseUrl: string, f: FlowInput) {
  const { verifier, challenge } = pkce();
  const b = new Browserless(baseUrl);
  const login = await b.follow(
    authorizeUrl(baseUrl, {
      client_id: f.clientId,
      resource: f.resource,
      scope: f.scope,
      code_challenge: challenge,
      state: 'st',
    }),
  );
  if (login.status !== 200) throw new Error(`authorize: ${login.status} ${login.location ?? login.text.slice(0, 300)}`);
  const consent = await b.postForm(formAction(login.text)!, [
    ['csrf', csrfOf(login.text)!],
    ['email', f.email],
    ['password', f.password],
  ]);
  if (consent.status !== 200)
    throw new Error(`login: ${consent.status} ${consent.location ?? consent.text.slice(0, 300)}`);
  const done = await b.postForm(formAction(consent.text)!, [
    ['csrf', csrfOf(consent.text)!],
    ['decision', 'allow'],
    ...f.choose.map((s): [string, string] => ['scope', s]),
  ]);
  const back = new URL(done.location ?? 'http://x/');
  const iss = back.searchParams.get('iss');
  const [code, error] = [back.searchParams.get('code'), back.searchParams.get('error')];
  return { code, error, iss, verifier, consentHtml: consent.text, status: done.status };
}

export async function tokenRequest(baseUrl: string, fields: Record<string, string>) {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** A whole flow: register, consent to `choose` on `resource`, exchange the code. */
export async function obtainTokens(baseUrl: string, f: Omit<FlowInput, 'clientId'>) {
  const reg = await registerClient(baseUrl);
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
  const clientId = reg.body.client_id as string;
  const { code, error, verifier } = await authorizeByHand(baseUrl, { ...f, clientId });
  if (!code) throw new Error(`no code: ${error}`);
  const tokens = await tokenRequest(baseUrl, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    resource: f.resource,
  });
  if (tokens.status !== 200) throw new Error(`token: ${tokens.status} ${JSON.stringify(tokens.body)}`);
  return {
    clientId,
    ...(tokens.body as { access_token: string; refresh_token: string; scope: string; expires_in: number }),
  };
}
