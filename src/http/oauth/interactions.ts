import type { Context } from 'koa';
import { errors, type Provider } from 'oidc-provider';
import { findUserById } from '../../accounts/accounts.repository.js';
import type { UserRow } from '../../accounts/accounts.schema.js';
import { verifyLogin } from '../../accounts/sessions.service.js';
import { limitSignIn } from '../../auth/sign-in-limits.js';
import { AppError } from '../../platform/errors.js';
import type { Deps } from '../../app/deps.js';
import { judgeConsentChoice, judgeConsentRequest } from '../../oauth/consent.js';
import { recordConsentedGrant } from '../../oauth/grants.service.js';
import { OAUTH_MOUNT } from '../../oauth/resources.js';
import { clientIp } from '../client-ip.js';
import { checkCsrf, csrfToken } from './csrf.js';
import { FormError, readForm, single } from './form-body.js';
import { csrfKey } from './keys.js';
import { renderMessage, renderPage } from './pages.js';
import { consentView, loginView, type ClientView } from './views.js';
import { now } from '../../platform/clock.js';

// The sign-in and consent steps of an authorization (oidc-provider "interactions"). The library keeps the
// interaction (in Postgres, bound to a cookie of the browser that started it); these handlers render and judge
// the forms and hand the result back with interactionFinished.

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

export function createInteractionHandlers(deps: Deps, provider: Provider, publicUrl: string) {
  const key = csrfKey(deps.config.appSecret);
  const actionOf = (uid: string, step: 'login' | 'confirm') => `${OAUTH_MOUNT}/interaction/${uid}/${step}`;

  async function clientOf(details: Details): Promise<ClientView> {
    const id = String(details.params.client_id ?? '');
    const client = await provider.Client.find(id).catch(() => undefined);
    return { id, name: client?.clientName ?? null, redirectUri: String(details.params.redirect_uri ?? '') };
  }

  /** The person signed in to this interaction, when there is one (and they still exist). */
  async function personOf(details: Details): Promise<UserRow | undefined> {
    const sub = details.session?.accountId;
    return sub ? findUserById(deps.db, sub) : undefined;
  }

  async function showLogin(ctx: Context, details: Details, status = 200, error?: string) {
    const client = await clientOf(details);
    const body = loginView(client, actionOf(details.uid, 'login'), csrfToken(key, details.uid, 'login'), error);
    renderPage(ctx, 'Sign in to Switchboard', body, { status, formTargets: [client.redirectUri] });
  }

  async function showConsent(ctx: Context, details: Details, user: UserRow, status = 200, error?: string) {
    const client = await clientOf(details);
    const request = await judgeConsentRequest(deps, publicUrl, user, details.params);
    if ('invalid' in request) return finish(ctx, { error: 'invalid_target', error_description: request.invalid });
    const body = consentView(
      client,
      user.email,
      request,
      actionOf(details.uid, 'confirm'),
      csrfToken(key, details.uid, 'confirm'),
      error,
    );
    renderPage(ctx, 'Allow access?', body, { status, formTargets: [client.redirectUri] });
  }

  async function finish(ctx: Context, result: Record<string, unknown>, merge = false) {
    ctx.respond = false; // interactionFinished writes the 303 itself
    await provider.interactionFinished(ctx.req, ctx.res, result, { mergeWithLastSubmission: merge });
  }

  /** GET: the sign-in form, or the consent form once signed in. */
  async function show(ctx: Context, uid: string) {
    const details = await loadDetails(ctx, uid);
    const user = details.prompt.name === 'consent' ? await personOf(details) : undefined;
    if (!user) return showLogin(ctx, details);
    return showConsent(ctx, details, user);
  }

  async function submitLogin(ctx: Context, uid: string) {
    const details = await loadDetails(ctx, uid);
    const form = await readForm(ctx, deps.config.oauth.maxFormBytes);
    checkCsrf(ctx, key, uid, 'login', single(form, 'csrf', 200), publicUrl);
    const email = single(form, 'email', 254).trim();
    const password = single(form, 'password', 1024);
    let user: UserRow;
    try {
      const who = { ip: clientIp(ctx, deps.config.trustProxyHops), email };
      user = await limitSignIn(deps, who, () => verifyLogin(deps, email, password));
    } catch (err) {
      if (err instanceof AppError && err.code === 'invalid_credential')
        return showLogin(ctx, details, 401, 'Email or password is incorrect.');
      if (err instanceof AppError && err.code === 'rate_limited') {
        const retryAfter = err.headers!['Retry-After']!;
        ctx.set('Retry-After', retryAfter);
        return showLogin(ctx, details, 429, `Too many sign-in attempts. Try again in ${retryAfter} seconds.`);
      }
      throw err;
    }
    // A browser-session cookie only: the person signs in again for the next client.
    return finish(ctx, { login: { accountId: user.id, remember: false } });
  }

  async function submitConsent(ctx: Context, uid: string) {
    const details = await loadDetails(ctx, uid);
    const form = await readForm(ctx, deps.config.oauth.maxFormBytes);
    checkCsrf(ctx, key, uid, 'confirm', single(form, 'csrf', 200), publicUrl);
    const user = details.prompt.name === 'consent' ? await personOf(details) : undefined;
    // A consent form posted without a signed-in person is answered with the sign-in form.
    if (!user) return showLogin(ctx, details, 401, 'Sign in first.');
    const decision = single(form, 'decision', 10);
    if (decision === 'deny') {
      return finish(ctx, { error: 'access_denied', error_description: 'The person declined to connect this client' });
    }
    if (decision !== 'allow') throw new FormError(400, 'The form field "decision" must be allow or deny.');

    const request = await judgeConsentRequest(deps, publicUrl, user, details.params);
    if ('invalid' in request) return finish(ctx, { error: 'invalid_target', error_description: request.invalid });
    const choice = judgeConsentChoice(request, form.get('scope') ?? []);
    if ('invalid' in choice) return showConsent(ctx, details, user, 400, choice.invalid);

    const client = await clientOf(details);
    const grant = new provider.Grant({ accountId: user.id, clientId: client.id });
    const refused = request.offered.filter((s) => !choice.scopes.includes(s));
    grant.addResourceScope(request.resource.url, choice.scopes.join(' '));
    if (refused.length) grant.rejectResourceScope(request.resource.url, refused.join(' '));
    // Our scope names are also registered as plain scopes (see provider.ts); mark each one the client asked
    // for as decided so the library does not ask again. They grant nothing beyond the resource's access token.
    const asked = String(details.params.scope ?? '')
      .split(' ')
      .filter(Boolean);
    const oidcGranted = asked.filter((s) => choice.scopes.includes(s) || s === 'offline_access' || s === 'openid');
    const oidcRefused = asked.filter((s) => !oidcGranted.includes(s));
    if (oidcGranted.length) grant.addOIDCScope(oidcGranted.join(' '));
    if (oidcRefused.length) grant.rejectOIDCScope(oidcRefused.join(' '));
    const grantId = await grant.save();

    await recordConsentedGrant(deps, {
      accountId: user.account_id,
      userId: user.id,
      grantId,
      clientId: client.id,
      clientName: client.name,
      resource: request.resource,
      scopes: choice.scopes,
      expiresAt: new Date(now().getTime() + deps.config.oauth.grantTtlSeconds * 1000),
      ip: clientIp(ctx, deps.config.trustProxyHops),
    });
    return finish(ctx, { consent: { grantId } }, true);
  }

  async function loadDetails(ctx: Context, uid: string): Promise<Details> {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.uid !== uid) throw new errors.SessionNotFound('interaction mismatch');
    return details;
  }

  /** Runs a step; errors become pages, never a stack or a JSON body. */
  return async function handle(ctx: Context, uid: string, step: 'show' | 'login' | 'confirm') {
    try {
      if (step === 'show') await show(ctx, uid);
      else if (step === 'login') await submitLogin(ctx, uid);
      else await submitConsent(ctx, uid);
    } catch (err) {
      if (err instanceof FormError) return renderMessage(ctx, 'This form cannot be accepted', err.message, err.status);
      if (err instanceof errors.SessionNotFound || err instanceof errors.InvalidRequest) {
        return renderMessage(
          ctx,
          'This sign-in has expired',
          'This sign-in link has expired or was opened in another browser. Start again from your MCP client.',
          400,
        );
      }
      ctx.state.log.error({ err }, 'OAuth interaction failed');
      return renderMessage(
        ctx,
        'Something went wrong',
        'Something went wrong on our side; it has been logged. Start again from your MCP client.',
        500,
      );
    }
  };
}
