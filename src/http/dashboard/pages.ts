import type { Context, Middleware } from 'koa';
import type { Deps } from '../../app/deps.js';
import { resolveSession, sessionEmail } from '../../accounts/sessions.service.js';
import { isAdminSession } from '../../auth/principal.js';
import { AppError } from '../../platform/errors.js';
import { FormError, readForm, type FormFields } from '../oauth/form-body.js';
import { apiFor, errorOf, type Api, type ApiAnswer } from './api-client.js';
import { html, type SafeHtml } from './html.js';
import { renderShell } from './layout.js';
import { checkOrigin, checkSessionCsrf, csrfForSession, dashboardKey, sessionTokenOf } from './session.js';
import { nav, type Viewer } from './views.js';

// What every signed-in page does first: the session cookie becomes the API's Bearer, the person's role decides
// which buttons are enabled (the API still decides what is allowed), and a POST's CSRF token and Origin are checked.

export const FORM_MAX_BYTES = 16 * 1024;

export interface Signed {
  api: Api;
  viewer: Viewer;
  token: string;
}

/** A page's failure: shown as a page with its status (the API's 403 and 404 included). */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
  ) {
    super(message);
  }
}

export function pageSetup(deps: Deps) {
  const key = dashboardKey(deps.config.appSecret);

  /** The signed-in person, or null (the caller redirects to sign-in). */
  async function signedIn(ctx: Context): Promise<Signed | null> {
    const token = sessionTokenOf(ctx);
    if (!token) return null;
    try {
      // The API's own session check, for the role (it greys out what the person may not do) and the header's email.
      const principal = await resolveSession(deps, token);
      const canAdmin = isAdminSession(principal);
      const email = await sessionEmail(deps, principal);
      return {
        token,
        api: apiFor(ctx, token),
        viewer: { role: principal.role, email, canAdmin, csrf: csrfForSession(key, token) },
      };
    } catch (err) {
      if (err instanceof AppError && err.status === 401) return null;
      throw err;
    }
  }

  /** A signed-in POST: the form, after its Origin and CSRF token are checked. */
  async function signedForm(ctx: Context, s: Signed): Promise<FormFields> {
    checkOrigin(ctx, ctx.state.publicUrl as string);
    const fields = await readForm(ctx, FORM_MAX_BYTES);
    checkSessionCsrf(key, s.token, fields.get('csrf')?.[0] ?? '');
    return fields;
  }

  /** A signed-in page: anyone else is sent to sign in; failures become pages. */
  const page =
    (handler: (ctx: Context, s: Signed) => Promise<void>): Middleware =>
    async (ctx) => {
      const s = await signedIn(ctx);
      if (!s) return ctx.redirect('/dashboard/sign-in');
      try {
        await handler(ctx, s);
      } catch (err) {
        renderFailure(ctx, s.viewer, err);
      }
    };

  /** A path parameter that could name a record; anything else is not found (the API would say the same). */
  const id = (ctx: Context, name: string) => {
    const value = String((ctx as Context & { params: Record<string, string> }).params[name]);
    if (!looksLikeId(value)) throw new AppError('not_found', 'Not found');
    return value;
  };

  /** A button: its form checked, the one API call it stands for, then a page with a notice (or the refusal). */
  const apiAction = (a: ApiAction): Middleware =>
    page(async (ctx, s) => {
      await signedForm(ctx, s);
      const res = await s.api(a.method ?? 'POST', a.path(ctx));
      if (res.status !== a.ok) throw refusal(res, a.what);
      ctx.redirect(a.then(ctx));
    });

  return { key, signedIn, signedForm, page, id, apiAction };
}

export type PageSetup = ReturnType<typeof pageSetup>;

export interface ApiAction {
  method?: 'POST' | 'DELETE';
  /** The API path the button stands for. */
  path: (ctx: Context) => string;
  /** The API's status when it is done. */
  ok: number;
  /** What a refusal names ("This key"). */
  what: string;
  /** Where the browser goes next. */
  then: (ctx: Context) => string;
}

/** Whether a path parameter could be a record's id (anything else is not found, as the API would say). */
export const looksLikeId = (value: string) => /^[A-Za-z0-9_-]{1,64}$/.test(value);

/** The message a redirect asked for with ?notice=<key>, among a page's own. */
export const noticeOf = (ctx: Context, notices: Record<string, string>): string | null =>
  notices[String(ctx.query.notice ?? '')] ?? null;

export function show(ctx: Context, viewer: Viewer | null, title: string, body: SafeHtml, status = 200): void {
  renderShell(ctx, { title, nav: viewer ? nav(viewer) : null, status }, body);
}

/** Turns an API refusal a page cannot show next to a field into a page: 403, 404 and the rest. */
export function refusal(answer: ApiAnswer, what: string): PageError {
  const err = errorOf(answer);
  if (answer.status === 404)
    return new PageError(404, 'Not found', `${what} was not found: it may have been deleted. ${err.message}.`);
  if (answer.status === 403) return new PageError(403, 'Not allowed', err.message);
  // The session ended between the page's own check and the API call (logged out elsewhere, expired).
  if (answer.status === 401) return new PageError(401, 'Signed out', `${err.message}. Sign in again.`);
  return new PageError(answer.status >= 400 ? answer.status : 500, 'Something went wrong', err.message);
}

export function renderFailure(ctx: Context, viewer: Viewer | null, err: unknown): void {
  if (err instanceof PageError)
    return show(ctx, viewer, err.title, html`<p class="error" role="alert">${err.message}</p>`, err.status);
  if (err instanceof AppError && err.status < 500)
    return show(
      ctx,
      viewer,
      err.status === 404 ? 'Not found' : 'Refused',
      html`<p class="error" role="alert">${err.message}</p>`,
      err.status,
    );
  if (err instanceof FormError)
    return show(
      ctx,
      viewer,
      'This form cannot be used',
      html`<p class="error" role="alert">${err.message}</p>`,
      err.status,
    );
  throw err;
}
