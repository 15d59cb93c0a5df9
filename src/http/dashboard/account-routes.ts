import type Router from '@koa/router';
import type { Context } from 'koa';
import { errorOf } from './api-client.js';
import type { Key, KeyUsage, Page, PortalLink, PortalLinkWithToken } from './api-types.js';
import { keyPage, keysPage } from './key-views.js';
import { noticeOf, refusal, show, type PageSetup, type Signed } from './pages.js';
import { portalLinkCreatedPage, portalLinksPage, type PortalLinkForm } from './portal-link-views.js';

// The account's pages beside its subscriptions: portal links (create, list, revoke) and account keys (list,
// deactivate). Like every dashboard page, each one is the API request a client would send.

const NOTICES: Record<string, string> = {
  deactivated: 'The key is deactivated.',
  revoked: 'The portal link is revoked: it stops working at once.',
};

export function registerAccountPages(router: Router, { page, signedForm, id, apiAction }: PageSetup) {
  async function linksPage(ctx: Context, s: Signed, form: PortalLinkForm = {}, status = 200) {
    const res = await s.api<Page<PortalLink>>('GET', '/v1/portal-links?limit=100');
    if (res.status !== 200) throw refusal(res, 'The portal links');
    const note = noticeOf(ctx, NOTICES);
    show(ctx, s.viewer, 'Portal links', portalLinksPage(s.viewer, res.body.data, form, note), status);
  }
  router.get(
    '/portal-links',
    page((ctx: Context, s: Signed) => linksPage(ctx, s)),
  );
  router.post(
    '/portal-links',
    page(async (ctx: Context, s: Signed) => {
      const fields = await signedForm(ctx, s);
      const tenant = (fields.get('tenant')?.[0] ?? '').trim();
      const events = fields.get('events') ?? [];
      const hours = (fields.get('hours')?.[0] ?? '').trim();
      const seconds = /^\d+(\.\d+)?$/.test(hours) ? Math.round(Number(hours) * 3600) : hours;
      const body = { tenant, ...(events.length ? { events } : {}), expiresInSeconds: seconds };
      const res = await s.api<PortalLinkWithToken>('POST', '/v1/portal-links', body);
      if (res.status === 201)
        return show(ctx, s.viewer, 'Portal link created', portalLinkCreatedPage(res.body.url ?? ''), 201);
      if (res.status !== 400) throw refusal(res, 'The portal link');
      await linksPage(ctx, s, { tenant, events, hours, error: errorOf(res) }, 400);
    }),
  );
  router.post(
    '/portal-links/:linkId/revoke',
    apiAction({
      path: (ctx) => `/v1/portal-links/${id(ctx, 'linkId')}/revoke`,
      ok: 200,
      what: 'This portal link',
      then: () => '/dashboard/portal-links?notice=revoked',
    }),
  );

  router.get(
    '/keys',
    page(async (ctx: Context, s: Signed) => {
      const res = await s.api<Page<Key>>('GET', '/v1/api_keys?limit=100');
      if (res.status !== 200) throw refusal(res, 'The keys');
      const note = noticeOf(ctx, NOTICES);
      show(ctx, s.viewer, 'API keys', keysPage(s.viewer, res.body.data, note));
    }),
  );
  router.get(
    '/keys/:keyId',
    page(async (ctx: Context, s: Signed) => {
      const base = `/v1/api_keys/${id(ctx, 'keyId')}`;
      const [key, usage] = await Promise.all([s.api<Key>('GET', base), s.api<KeyUsage>('GET', `${base}/usage`)]);
      for (const answer of [key, usage]) if (answer.status !== 200) throw refusal(answer, 'This key');
      // vega is loaded by the first page that draws a chart, not by every API process at start.
      const { usageChartDataUri } = await import('./chart.js');
      const chart = await usageChartDataUri(usage.body.hours, (message) =>
        ctx.state.log.warn({ chart: 'usage' }, message),
      );
      show(ctx, s.viewer, `Key ${key.body.name}`, keyPage(s.viewer, key.body, usage.body, chart));
    }),
  );
  router.post(
    '/keys/:keyId/deactivate',
    apiAction({
      path: (ctx) => `/v1/api_keys/${id(ctx, 'keyId')}/deactivate`,
      ok: 200,
      what: 'This key',
      then: () => '/dashboard/keys?notice=deactivated',
    }),
  );
}
