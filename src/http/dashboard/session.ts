import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { safeEqual } from '../../platform/crypto.js';
import { FormError } from '../oauth/form-body.js';

// The dashboard's browser session is the API's own session token (ca_sess_…) in a cookie: HttpOnly (no script
// reads it), SameSite=Strict (no other site's request carries it), Secure in production, scoped to /dashboard.
// Every form carries a CSRF token that only this server can compute for the session: an HMAC of the token under a
// key derived from APP_SECRET. The sign-in form, before any session exists, binds its token to a random cookie of
// its own instead. A present Origin must be ours (docs/adr/0060-dashboard-sessions.md).

export const SESSION_COOKIE = 'sb_dash';
const LOGIN_COOKIE = 'sb_dash_login';
export const DASHBOARD_PATH = '/dashboard';

export const dashboardKey = (appSecret: string): Buffer =>
  Buffer.from(hkdfSync('sha256', appSecret, 'switchboard', 'dashboard-csrf-key', 32));

const mac = (key: Buffer, purpose: string, value: string) =>
  createHmac('sha256', key).update(`${purpose}:${value}`).digest('base64url');

interface CookieOptions {
  secure: boolean;
  path?: string;
  maxAgeMs?: number;
}

export function setCookie(ctx: Context, name: string, value: string, opts: CookieOptions): void {
  const parts = [
    `${name}=${value}`,
    `Path=${opts.path ?? DASHBOARD_PATH}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(opts.secure ? ['Secure'] : []),
    ...(opts.maxAgeMs !== undefined ? [`Max-Age=${Math.floor(opts.maxAgeMs / 1000)}`] : []),
  ];
  ctx.append('Set-Cookie', parts.join('; '));
}

export function readCookie(ctx: Context, name: string): string | null {
  for (const pair of (ctx.get('cookie') || '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim() || null;
  }
  return null;
}

/** The session token of the request, if it carries one that looks like a session token. */
export function sessionTokenOf(ctx: Context): string | null {
  const token = readCookie(ctx, SESSION_COOKIE);
  return token && /^ca_sess_[A-Za-z0-9]{1,100}$/.test(token) ? token : null;
}

export const csrfForSession = (key: Buffer, sessionToken: string) => mac(key, 'session', sessionToken);

/** The sign-in form's token, bound to a random cookie set with the form. */
export function loginCsrf(ctx: Context, key: Buffer, secure: boolean): string {
  let nonce = readCookie(ctx, LOGIN_COOKIE);
  if (!nonce || !/^[A-Za-z0-9_-]{20,64}$/.test(nonce)) {
    nonce = randomBytes(24).toString('base64url');
    setCookie(ctx, LOGIN_COOKIE, nonce, { secure });
  }
  return mac(key, 'login', nonce);
}

export function checkOrigin(ctx: Context, publicUrl: string): void {
  const origin = ctx.get('origin');
  if (origin && origin !== new URL(publicUrl).origin) throw new FormError(403, 'This form was sent from another site.');
}

export function checkLoginCsrf(ctx: Context, key: Buffer, submitted: string): void {
  const nonce = readCookie(ctx, LOGIN_COOKIE) ?? '';
  if (!nonce || !safeEqual(submitted, mac(key, 'login', nonce)))
    throw new FormError(400, 'This form has expired. Load the sign-in page again.');
}

export function checkSessionCsrf(key: Buffer, sessionToken: string, submitted: string): void {
  if (!safeEqual(submitted, csrfForSession(key, sessionToken)))
    throw new FormError(403, 'This form has expired or was not sent by this dashboard. Load the page again.');
}
