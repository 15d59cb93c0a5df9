import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Deps } from '../../app/deps.js';
import { loginInput } from '../../accounts/accounts.schema.js';
import { login } from '../../accounts/sessions.service.js';
import { parseInput } from '../../platform/validation.js';
import { limitSignIn } from '../../auth/sign-in-limits.js';
import { now } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { clientIp } from '../client-ip.js';
import { readForm, single } from '../oauth/form-body.js';
import { errorOf, type ApiError } from './api-client.js';
import type {
  Attempt,
  Delivery,
  DeliveryWithEnvelope,
  Page,
  RotatedSecret,
  Webhook,
  WebhookStats,
  WebhookWithSecret,
} from './api-types.js';
import { html } from './html.js';
import { registerAccountPages } from './account-routes.js';
import { registerAgentPages } from './agent-routes.js';
import { FORM_MAX_BYTES, noticeOf, pageSetup, refusal, renderFailure, show, type Signed } from './pages.js';
import { checkLoginCsrf, checkOrigin, loginCsrf, SESSION_COOKIE, setCookie } from './session.js';
import { csrfField } from './views.js';
import { DELIVERY_NOTICES, deliveryPage } from './delivery-views.js';
import {
  CREATED_KIND_NAMES,
  secretPage,
  webhookPage,
  webhooksPage,
  type CreatedKind,
  type CreateForm,
} from './webhook-views.js';
import { kindNamed } from '../../delivery/kinds/registry.js';

// The /dashboard pages. Each handler turns a form into the API request a client would send and the API's answer
// into a page; see api-client.ts for why nothing here reads the database.

const NOTICES: Record<string, string> = {
  test: 'A webhook.test event was queued for this subscription.',
  enabled: 'The subscription is enabled.',
  disabled: 'The subscription is disabled: nothing is delivered until it is enabled again.',
  ...DELIVERY_NOTICES,
};

export function dashboardRouter(deps: Deps): Middleware {
  const router = new Router({ prefix: '/dashboard' });
  const setup = pageSetup(deps);
  const { key, signedForm, page, id, apiAction } = setup;
  const secure = deps.config.env === 'production';

  function signInPage(ctx: Context, error?: string, status = 200) {
    const csrf = loginCsrf(ctx, key, secure);
    show(
      ctx,
      null,
      'Sign in to Switchboard',
      html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}
        <form method="post" action="/dashboard/sign-in">
          ${csrfField(csrf)} <label for="email">Email</label
          ><input id="email" name="email" type="email" autocomplete="username" required maxlength="254" />
          <label for="password">Password</label
          ><input
            id="password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
            maxlength="1024"
          />
          <p><button type="submit">Sign in</button></p>
        </form>`,
      status,
    );
  }

  router.get('/', async (ctx) => ctx.redirect('/dashboard/webhooks'));
  router.get('/sign-in', async (ctx) => signInPage(ctx));
  router.post('/sign-in', async (ctx) => {
    try {
      checkOrigin(ctx, ctx.state.publicUrl);
      const fields = await readForm(ctx, FORM_MAX_BYTES);
      checkLoginCsrf(ctx, key, fields.get('csrf')?.[0] ?? '');
      // The API's own rules for a sign-in (POST /v1/auth/login's schema).
      const { email, password } = parseInput(loginInput, {
        email: single(fields, 'email', 254),
        password: single(fields, 'password', 1024),
      });
      // The API's sign-in, by the same functions POST /v1/auth/login runs, with the browser's own address.
      const who = { ip: clientIp(ctx, deps.config.trustProxyHops), email };
      const { session } = await limitSignIn(deps, who, () => login(deps, email, password));
      setCookie(ctx, SESSION_COOKIE, session.token, {
        secure,
        maxAgeMs: session.expiresAt.getTime() - now().getTime(),
      });
      ctx.redirect('/dashboard/webhooks');
    } catch (err) {
      if (err instanceof AppError && (err.status === 401 || err.status === 429 || err.status === 400))
        return signInPage(ctx, err.message, err.status);
      renderFailure(ctx, null, err);
    }
  });
  router.post(
    '/sign-out',
    page(async (ctx, s) => {
      await signedForm(ctx, s);
      await s.api('POST', '/v1/auth/logout');
      setCookie(ctx, SESSION_COOKIE, '', { secure, maxAgeMs: 0 });
      ctx.redirect('/dashboard/sign-in');
    }),
  );

  async function listPage(ctx: Context, s: Signed, form: CreateForm = {}, status = 200) {
    const list = await s.api<Page<Webhook>>('GET', '/v1/webhooks?limit=100');
    if (list.status !== 200) throw refusal(list, 'The subscriptions');
    // Each one's health over the same window as its own page; a row whose stats cannot be read shows without them.
    const listed = await Promise.all(
      list.body.data.map(async (webhook) => {
        const stats = await s.api<WebhookStats>('GET', `/v1/webhooks/${webhook.id}/stats?window=24h`);
        return { webhook, stats: stats.status === 200 ? stats.body : null };
      }),
    );
    show(ctx, s.viewer, 'Webhook subscriptions', webhooksPage(s.viewer, listed, form), status);
  }

  router.get(
    '/webhooks',
    page((ctx, s) => listPage(ctx, s)),
  );
  router.post(
    '/webhooks',
    page(async (ctx, s) => {
      const fields = await signedForm(ctx, s);
      const one = (name: string) => (fields.get(name)?.[0] ?? '').trim();
      const kind: CreatedKind = CREATED_KIND_NAMES.includes(one('kind')) ? one('kind') : 'http';
      const declared = kindNamed(kind);
      const url = one('url');
      const kindFields = Object.fromEntries(declared.fields.map((f) => [f.name, one(f.name)]));
      const events = fields.get('events') ?? [];
      const rate = one('rateLimitPerSecond');
      const tenant = one('tenant');
      const signatureScheme = one('signatureScheme') || 'hmac-sha256';
      // Only the chosen kind's fields are sent (the others' inputs are on the page too, hidden by the stylesheet), and
      // an empty one not at all, so that the API answers that it is required.
      const body: Record<string, unknown> = { kind, events, signatureScheme, ...(tenant ? { tenant } : {}) };
      if (declared.url !== 'none') body.url = url;
      for (const f of declared.fields) {
        const typed = kindFields[f.name];
        // A number the API's own rule judges; a text that is not one is sent as is and refused by it.
        if (typed) body[f.name] = f.numeric && /^-?\d+$/.test(typed) ? Number(typed) : typed;
      }
      // The API's own rule judges the number; a text that is not one is sent as is and refused by it.
      if (rate) body.rateLimitPerSecond = /^-?\d+$/.test(rate) ? Number(rate) : rate;
      const res = await s.api<WebhookWithSecret>('POST', '/v1/webhooks', body);
      if (res.status === 201)
        return show(
          ctx,
          s.viewer,
          'Subscription created',
          secretPage(`/dashboard/webhooks/${res.body.id}`, res.body, 'The subscription is active.'),
          201,
        );
      if (res.status >= 500 || res.status === 401) throw refusal(res, 'The subscription');
      const form = {
        kind,
        url,
        fields: kindFields,
        events,
        rateLimitPerSecond: rate,
        tenant,
        signatureScheme,
        error: errorOf(res),
      };
      await listPage(ctx, s, form, res.status);
    }),
  );

  async function detailPage(ctx: Context, s: Signed, webhookId: string, enableError?: ApiError | null) {
    const base = `/v1/webhooks/${webhookId}`;
    const filter = {
      status: typeof ctx.query.status === 'string' && ctx.query.status ? ctx.query.status : undefined,
      event: typeof ctx.query.event === 'string' && ctx.query.event ? ctx.query.event : undefined,
    };
    const query = new URLSearchParams({ limit: '50' });
    if (filter.status) query.set('status', filter.status);
    if (filter.event) query.set('event', filter.event);
    const [webhook, stats, deliveries] = await Promise.all([
      s.api<Webhook>('GET', base),
      s.api<WebhookStats>('GET', `${base}/stats?window=24h`),
      s.api<Page<Delivery>>('GET', `${base}/deliveries?${query}`),
    ]);
    for (const answer of [webhook, stats, deliveries])
      if (answer.status !== 200) throw refusal(answer, 'This subscription');
    // vega is loaded by the first page that draws a chart, not by every API process at start.
    const { attemptsChartDataUri } = await import('./chart.js');
    const chart = await attemptsChartDataUri(stats.body.buckets, (message) =>
      ctx.state.log.warn({ chart: 'attempts' }, message),
    );
    const note = noticeOf(ctx, NOTICES);
    const data = {
      webhook: webhook.body,
      stats: stats.body,
      chart,
      deliveries: deliveries.body.data,
      filter,
      notice: note,
    };
    show(ctx, s.viewer, 'Subscription', webhookPage(s.viewer, { ...data, enableError }), enableError ? 400 : 200);
  }

  router.get(
    '/webhooks/:webhookId',
    page((ctx, s) => detailPage(ctx, s, id(ctx, 'webhookId'))),
  );
  router.post(
    '/webhooks/:webhookId/rotate-secret',
    page(async (ctx, s) => {
      await signedForm(ctx, s);
      const webhookId = id(ctx, 'webhookId');
      const res = await s.api<RotatedSecret>('POST', `/v1/webhooks/${webhookId}/rotate-secret`);
      if (res.status !== 200) throw refusal(res, 'This subscription');
      const what = 'The signing key is rotated; deliveries are signed with both keys until the old one expires.';
      show(ctx, s.viewer, 'New signing key', secretPage(`/dashboard/webhooks/${webhookId}`, res.body, what));
    }),
  );
  /** A subscription's button: the API action of the same name, then the subscription's page with its notice. */
  const webhookAction = (action: 'test' | 'disable', ok: number, notice: string) =>
    apiAction({
      path: (ctx) => `/v1/webhooks/${id(ctx, 'webhookId')}/${action}`,
      ok,
      what: 'This subscription',
      then: (ctx) => `/dashboard/webhooks/${id(ctx, 'webhookId')}?notice=${notice}`,
    });
  router.post('/webhooks/:webhookId/test', webhookAction('test', 202, 'test'));
  router.post('/webhooks/:webhookId/disable', webhookAction('disable', 200, 'disabled'));
  router.post(
    '/webhooks/:webhookId/enable',
    page(async (ctx, s) => {
      const fields = await signedForm(ctx, s);
      const webhookId = id(ctx, 'webhookId');
      const since = (fields.get('recoverSince')?.[0] ?? '').trim();
      const res = await s.api('POST', `/v1/webhooks/${webhookId}/enable`, since ? { recoverSince: since } : {});
      if (res.status === 400) return detailPage(ctx, s, webhookId, errorOf(res));
      if (res.status !== 200) throw refusal(res, 'This subscription');
      ctx.redirect(`/dashboard/webhooks/${webhookId}?notice=enabled`);
    }),
  );
  router.get(
    '/webhooks/:webhookId/deliveries/:deliveryId',
    page(async (ctx, s) => {
      const [webhookId, deliveryId] = [id(ctx, 'webhookId'), id(ctx, 'deliveryId')];
      const api = `/v1/webhooks/${webhookId}`;
      const [delivery, attempts] = await Promise.all([
        s.api<DeliveryWithEnvelope>('GET', `${api}/deliveries/${deliveryId}`),
        s.api<Page<Attempt>>('GET', `${api}/attempts?limit=100&deliveryId=${deliveryId}`),
      ]);
      for (const answer of [delivery, attempts]) if (answer.status !== 200) throw refusal(answer, 'This delivery');
      const base = `/dashboard/webhooks/${webhookId}`;
      const view = deliveryPage(s.viewer, base, delivery.body, attempts.body.data, noticeOf(ctx, NOTICES));
      show(ctx, s.viewer, 'Delivery', view);
    }),
  );
  router.post(
    '/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    apiAction({
      path: (ctx) => `/v1/webhooks/${id(ctx, 'webhookId')}/deliveries/${id(ctx, 'deliveryId')}/redeliver`,
      ok: 202,
      what: 'This delivery',
      then: (ctx) =>
        `/dashboard/webhooks/${id(ctx, 'webhookId')}/deliveries/${id(ctx, 'deliveryId')}?notice=redelivered`,
    }),
  );

  registerAccountPages(router, setup);
  registerAgentPages(router, setup);

  return router.routes() as unknown as Middleware;
}
