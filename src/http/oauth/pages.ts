import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';

// Server-rendered pages of the authorization server: sign-in, consent and errors. No script, no external
// resource, nothing secret in the markup. Every value from outside is HTML-escaped; the headers forbid framing
// (clickjacking), caching and referrers.

export const escapeHtml = (s: string): string => s.replace(/[&<>"'`=]/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;background:#f4f5f7;color:#1d2430;margin:0}
main{max-width:430px;margin:48px auto;background:#fff;border-radius:8px;box-shadow:0 1px 4px #0002;padding:28px}
h1{font-size:20px;margin:0 0 16px}label{display:block;margin:10px 0 4px;font-weight:600}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:9px;border:1px solid #bbc;border-radius:4px}
fieldset{border:1px solid #dde;border-radius:4px;margin:14px 0;padding:8px 12px}fieldset label{font-weight:400}
.row{display:flex;gap:10px;margin-top:18px}button{flex:1;padding:10px;border:0;border-radius:4px;font-size:15px;cursor:pointer}
.allow{background:#2856d8;color:#fff}.deny{background:#e4e6ea}.error{color:#b00020}.muted{color:#667;font-size:13px}
code{background:#eef;padding:1px 4px;border-radius:3px}`;

export interface PageOptions {
  status?: number;
  /** Where a form on the page may lead after the server's redirects (CSP form-action): the client's redirect URI. */
  formTargets?: string[];
}

/** A CSP source for a redirect URI: its origin for http(s), its scheme for an app's custom scheme. */
export function cspSourceOf(uri: string): string | null {
  const url = URL.parse(uri);
  if (!url) return null;
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : null;
}

export function setPageHeaders(ctx: Pick<Context, 'set'>, nonce: string, formTargets: string[] = []): void {
  const formAction = ["'self'", ...formTargets.map(cspSourceOf).filter((s): s is string => s !== null)].join(' ');
  ctx.set('Content-Type', 'text/html; charset=utf-8');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // same-origin, not no-referrer: under no-referrer the browser sends "Origin: null" with our own form posts.
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
}

/** Renders a page. `body` is trusted markup: callers escape every outside value with escapeHtml. */
export function renderPage(ctx: Context, title: string, body: string, opts: PageOptions = {}): void {
  const nonce = randomBytes(16).toString('base64');
  setPageHeaders(ctx, nonce, opts.formTargets);
  ctx.status = opts.status ?? 200;
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Switchboard</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

export function renderMessage(ctx: Context, title: string, message: string, status: number): void {
  renderPage(ctx, title, `<p class="error">${escapeHtml(message)}</p>`, { status });
}

/**
 * The authorization server's own error page (when it cannot send the error back to the client, e.g. an
 * unregistered redirect URI): the OAuth error code and its description, never a stack.
 */
export function renderOAuthError(ctx: Context, out: { error?: string; error_description?: string }): void {
  const code = out.error ?? 'server_error';
  const description = out.error_description ?? 'The request could not be completed';
  renderPage(
    ctx,
    'This request cannot continue',
    `<p class="error"><code>${escapeHtml(code)}</code>: ${escapeHtml(description)}</p><p class="muted">Start again from your MCP client.</p>`,
    { status: ctx.status >= 400 ? ctx.status : 400 },
  );
}
