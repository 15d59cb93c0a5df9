import { createHmac } from 'node:crypto';
import type { Context } from 'koa';
import { safeEqual } from '../../platform/crypto.js';
import { FormError } from './form-body.js';

// CSRF for the login and consent forms, in three layers: the interaction cookie is SameSite=Lax (a cross-site
// POST does not carry it), a same-origin Origin header when the browser sends one, and a token in the form that
// only this server can compute for this interaction (HMAC under a key derived from APP_SECRET). The token is
// not a secret of the person: it is useless without the interaction cookie of the browser that started the flow.

export const csrfToken = (key: Buffer, uid: string, form: string): string =>
  createHmac('sha256', key).update(`${form}:${uid}`).digest('base64url');

export function checkCsrf(
  ctx: Context,
  key: Buffer,
  uid: string,
  form: string,
  submitted: string,
  publicUrl: string,
): void {
  const origin = ctx.get('origin');
  if (origin && origin !== new URL(publicUrl).origin) throw new FormError(403, 'This form was sent from another site.');
  if (!safeEqual(submitted, csrfToken(key, uid, form)))
    throw new FormError(400, 'This form has expired. Start again from your MCP client.');
}
