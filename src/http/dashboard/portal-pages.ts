import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Deps } from '../../app/deps.js';
import { AppError } from '../../platform/errors.js';
import { FormError, readForm, type FormFields } from '../oauth/form-body.js';
import { apiFor, errorOf, type Api, type ApiAnswer } from './api-client.js';
import type {
  Attempt,
  Delivery,
  DeliveryWithEnvelope,
  Page,
  PortalLinkScope,
  RotatedSecret,
  Webhook,
  WebhookWithSecret,
} from './api-types.js';
import { html, type SafeHtml } from './html.js';
import { renderShell } from './layout.js';
import { FORM_MAX_BYTES, looksLikeId, noticeOf, PageError, refusal } from './pages.js';
import { portalListPage, portalWebhookPage, type PortalForm } from './portal-views.js';
import { checkOrigin, checkSessionCsrf, csrfForSession, dashboardKey } from './session.js';
import { type Viewer } from './views.js';
import { DELIVERY_NOTICES, deliveryPage } from './delivery-views.js';
import { secretPage } from './webhook-views.js';

// The portal: /portal/<token>/… . The link's token is in the path (no cookie, so the page works framed inside the
// account's own app) and is the Bearer of every portal API call (/v1/portal/…), which enforces the scope on every
// request. A token that is not one, has expired or was revoked is a 401 page; another tenant's subscription is 404.

const TOKEN = /^ca_portal_[0-9A-Za-z]{40}$/;
const NOTICES: Record<string, string> = {
  saved: 'Saved.',
  ...DELIVERY_NOTICES,
};

interface Portal {
  api: Api;
  base: string;
  viewer: Viewer;
  token: string;
  /** A POST's form, its Origin and CSRF token checked; empty on a GET. */
  form: FormFields;
}

export function portalRouter(deps: Deps): Middleware {
  const router = new Router({ prefix: '/portal/:token' });
  const key = dashboardKey(deps.config.appSecret);
  const show = (ctx: Context, title: string, body: SafeHtml, status = 200) =>
    renderShell(ctx, { title, status, embeddable: true }, body);

  const page =
    (handler: (ctx: Context, p: Portal) => Promise<void>): Middleware =>
    async (ctx) => {
      try {
        const token = String(ctx.params.token);
        if (!TOKEN.test(token)) throw new PageError(401, 'Link not valid', 'This portal link is not valid.');
        let form: FormFields = new Map();
        if (ctx.method === 'POST') {
          checkOrigin(ctx, ctx.state.publicUrl);
          form = await readForm(ctx, FORM_MAX_BYTES);
          checkSessionCsrf(key, `portal:${token}`, form.get('csrf')?.[0] ?? '');
        }
        const viewer = { role: 'portal', email: null, canAdmin: false, csrf: csrfForSession(key, `portal:${token}`) };
        await handler(ctx, { token, api: apiFor(ctx, token), base: `/portal/${token}`, viewer, form });
      } catch (err) {
        const shown =
          err instanceof PageError || err instanceof FormError || (err instanceof AppError && err.status < 500);
        if (!shown) throw err;
        const title = err instanceof PageError ? err.title : 'Refused';
        show(ctx, title, html`<p class="error" role="alert">${err.message}</p>`, err.status);
      }
    };
  const id = (ctx: Context, name: string) => {
    const value = String(ctx.params[name]);
    if (!looksLikeId(value)) throw new PageError(404, 'Not found', 'This endpoint was not found.');
    return value;
  };
  /** The API's answer, or the page its refusal calls for (401: the link itself is refused). */
  const expect = <T>(answer: ApiAnswer<T>, ok: number, what: string): T => {
    if (answer.status === ok) return answer.body;
    if (answer.status === 401) throw new PageError(401, 'Link not valid', `${errorOf(answer).message}.`);
    throw refusal(answer, what);
  };

  async function listPage(ctx: Context, p: Portal, form: PortalForm = {}, status = 200) {
    const [hooks, scope] = await Promise.all([
      p.api<Page<Webhook>>('GET', '/v1/portal/webhooks?limit=100'),
      p.api<PortalLinkScope>('GET', '/v1/portal'),
    ]);
    const list = expect(hooks, 200, 'The endpoints');
    const offered = expect(scope, 200, 'The portal').events;
    const note = noticeOf(ctx, NOTICES);
    show(ctx, 'Your webhook endpoints', portalListPage(p.viewer, p.base, offered, list.data, form, note), status);
  }

  router.get(
    '/',
    page((ctx, p) => listPage(ctx, p)),
  );
  router.post(
    '/webhooks',
    page(async (ctx, p) => {
      const url = p.form.get('url')?.[0] ?? '';
      const events = p.form.get('events') ?? [];
      const signatureScheme = p.form.get('signatureScheme')?.[0] ?? 'hmac-sha256';
      const res = await p.api<WebhookWithSecret>('POST', '/v1/portal/webhooks', { url, events, signatureScheme });
      if (res.status === 400) return listPage(ctx, p, { url, events, signatureScheme, error: errorOf(res) }, 400);
      const made = expect(res, 201, 'The endpoint');
      const base = `${p.base}/webhooks/${made.id}`;
      show(ctx, 'Endpoint added', secretPage(base, made, 'The endpoint is active.'), 201);
    }),
  );

  async function webhookPage(ctx: Context, p: Portal, webhookId: string, form: PortalForm = {}, status = 200) {
    const [hook, deliveries] = await Promise.all([
      p.api<Webhook>('GET', `/v1/portal/webhooks/${webhookId}`),
      p.api<Page<Delivery>>('GET', `/v1/portal/webhooks/${webhookId}/deliveries?limit=50`),
    ]);
    const webhook = expect(hook, 200, 'This endpoint');
    const list = expect(deliveries, 200, 'This endpoint');
    const note = noticeOf(ctx, NOTICES);
    show(ctx, 'Endpoint', portalWebhookPage(p.viewer, p.base, webhook, list.data, form, note), status);
  }

  router.get(
    '/webhooks/:webhookId',
    page((ctx, p) => webhookPage(ctx, p, id(ctx, 'webhookId'))),
  );
  router.post(
    '/webhooks/:webhookId',
    page(async (ctx, p) => {
      const webhookId = id(ctx, 'webhookId');
      const url = p.form.get('url')?.[0] ?? '';
      const res = await p.api<Webhook>('PATCH', `/v1/portal/webhooks/${webhookId}`, { url });
      if (res.status === 400) return webhookPage(ctx, p, webhookId, { url, error: errorOf(res) }, 400);
      expect(res, 200, 'This endpoint');
      ctx.redirect(`${p.base}/webhooks/${webhookId}?notice=saved`);
    }),
  );
  router.post(
    '/webhooks/:webhookId/rotate-secret',
    page(async (ctx, p) => {
      const webhookId = id(ctx, 'webhookId');
      const res = await p.api<RotatedSecret>('POST', `/v1/portal/webhooks/${webhookId}/rotate-secret`);
      const rotated = expect(res, 200, 'This endpoint');
      const what = 'The signing key is rotated; deliveries are signed with both keys for 24 hours.';
      show(ctx, 'New signing key', secretPage(`${p.base}/webhooks/${webhookId}`, rotated, what));
    }),
  );
  router.get(
    '/webhooks/:webhookId/deliveries/:deliveryId',
    page(async (ctx, p) => {
      const [webhookId, deliveryId] = [id(ctx, 'webhookId'), id(ctx, 'deliveryId')];
      const api = `/v1/portal/webhooks/${webhookId}`;
      const [found, listed] = await Promise.all([
        p.api<DeliveryWithEnvelope>('GET', `${api}/deliveries/${deliveryId}`),
        p.api<Page<Attempt>>('GET', `${api}/attempts?limit=100&deliveryId=${deliveryId}`),
      ]);
      const delivery = expect(found, 200, 'This delivery');
      const attempts = expect(listed, 200, 'This delivery').data;
      const base = `${p.base}/webhooks/${webhookId}`;
      show(ctx, 'Delivery', deliveryPage(p.viewer, base, delivery, attempts, noticeOf(ctx, NOTICES)));
    }),
  );
  router.post(
    '/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    page(async (ctx, p) => {
      const [webhookId, deliveryId] = [id(ctx, 'webhookId'), id(ctx, 'deliveryId')];
      const path = `/v1/portal/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`;
      expect(await p.api('POST', path), 202, 'This delivery');
      ctx.redirect(`${p.base}/webhooks/${webhookId}/deliveries/${deliveryId}?notice=redelivered`);
    }),
  );

  return router.routes() as unknown as Middleware;
}
