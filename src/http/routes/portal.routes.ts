import { publicAccess, requireScope } from '../../auth/access.js';
import type { Deps } from '../../app/deps.js';
import { iso } from '../../platform/clock.js';
import type { ErrorCode } from '../../platform/errors.js';
import { toWebhookResponse } from '../../webhooks/webhooks.repository.js';
import { pageOf } from '../../platform/output.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { attemptResponse, deliveryResponse, deliveryWithEnvelopeResponse } from '../../webhooks/deliveries.schema.js';
import {
  createPortalLinkInput,
  portalCreateWebhookInput,
  portalLinkResponse,
  portalLinkWithTokenResponse,
  portalScopeResponse,
  portalUpdateWebhookInput,
} from '../../webhooks/portal-links.schema.js';
import {
  checkPortalEvents,
  createPortalLink,
  listAccountPortalLinks,
  portalWebhook,
  resolvePortalToken,
  revokePortalLink,
  type PortalScope,
} from '../../webhooks/portal-links.service.js';
import {
  attemptsQuery,
  deliveriesQuery,
  redeliveryResponse,
  rotateSecretInput,
  rotatedSecretResponse,
  webhookChangedResponse,
  webhookResponse,
  webhookWithSecretResponse,
} from '../../webhooks/webhooks.schema.js';
import {
  changeWebhook,
  createWebhook,
  getWebhookDelivery,
  listWebhookAttempts,
  listWebhookDeliveries,
  listWebhookSubscriptions,
  redeliver,
  rotateWebhookSecret,
} from '../../webhooks/webhooks.service.js';
import { clientIp } from '../client-ip.js';
import type { AppContext } from '../context.js';
import { bearerToken, callerOf, principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

// Portal links (docs/adr/0063-portal-links.md): the account's routes that issue and revoke them, and the portal's
// own routes under /v1/portal, which accept only a portal token and reach only the subscriptions of its tenant.

const tag = 'Webhooks';
const portal = { security: [{ portalToken: [] }], errors: ['missing_credential', 'invalid_credential'] as ErrorCode[] };

export function registerPortalRoutes(api: ApiRouter, deps: Deps) {
  const param = (ctx: AppContext, name: string) => String((ctx.params as Record<string, string>)[name]);
  /** The portal token of the request, resolved on every request: expiry and revocation apply at once. */
  const scopeOf = (ctx: AppContext): Promise<PortalScope> =>
    resolvePortalToken(deps, bearerToken(ctx), clientIp(ctx, deps.config.trustProxyHops));
  /** The request's scope and the subscription its path names, when that is one of the tenant's (else 404). */
  const scopedWebhook = async (ctx: AppContext) => {
    const scope = await scopeOf(ctx);
    return { scope, webhook: await portalWebhook(deps, scope, param(ctx, 'webhookId')) };
  };

  api.post(
    '/v1/portal-links',
    requireScope('write:webhooks'),
    {
      operationId: 'createPortalLink',
      summary: 'Create a portal link for the subscriptions of one tenant',
      tag,
      body: createPortalLinkInput,
      response: portalLinkWithTokenResponse,
      status: 201,
      description:
        'The link (`url`, with its `token`) is shown in this answer only. Its holder manages the subscriptions whose `tenant` is this one, and only those, until it expires or is revoked.',
      examples: { request: { tenant: 'customer-42', events: ['message.received'], expiresInSeconds: 86400 } },
    },
    async (ctx) => {
      ctx.status = 201;
      const input = parseInput(createPortalLinkInput, ctx.request.body);
      ctx.body = await createPortalLink(deps, callerOf(ctx), input, ctx.state.publicUrl);
    },
    idempotent('token', 'url'),
  );

  api.get(
    '/v1/portal-links',
    requireScope('read:webhooks'),
    {
      operationId: 'listPortalLinks',
      summary: 'List portal links',
      tag,
      query: pageQuery,
      response: pageOf(portalLinkResponse),
    },
    async (ctx) => {
      ctx.body = await listAccountPortalLinks(deps, principalOf(ctx).accountId, parseInput(pageQuery, ctx.query));
    },
  );

  api.post(
    '/v1/portal-links/:linkId/revoke',
    requireScope('write:webhooks'),
    { operationId: 'revokePortalLink', summary: 'Revoke a portal link (at once)', tag, response: portalLinkResponse },
    async (ctx) => {
      ctx.body = await revokePortalLink(deps, callerOf(ctx), param(ctx, 'linkId'));
    },
  );

  api.get(
    '/v1/portal/webhooks',
    publicAccess,
    {
      operationId: 'listPortalWebhooks',
      summary: "A portal: its tenant's subscriptions",
      tag,
      query: pageQuery,
      response: pageOf(webhookResponse),
      ...portal,
    },
    async (ctx) => {
      const scope = await scopeOf(ctx);
      const page = parseInput(pageQuery, ctx.query);
      ctx.body = await listWebhookSubscriptions(deps, scope.link.account_id, page, scope.link.tenant);
    },
  );

  api.get(
    '/v1/portal',
    publicAccess,
    {
      operationId: 'getPortalScope',
      summary: 'A portal: what its link reaches',
      tag,
      response: portalScopeResponse,
      ...portal,
    },
    async (ctx) => {
      const { link } = await scopeOf(ctx);
      ctx.body = { tenant: link.tenant, events: link.events, expiresAt: iso(link.expires_at) };
    },
  );

  api.get(
    '/v1/portal/webhooks/:webhookId',
    publicAccess,
    {
      operationId: 'getPortalWebhook',
      summary: 'A portal: one subscription',
      tag,
      response: webhookResponse,
      ...portal,
    },
    async (ctx) => {
      ctx.body = toWebhookResponse((await scopedWebhook(ctx)).webhook);
    },
  );

  api.post(
    '/v1/portal/webhooks',
    publicAccess,
    {
      operationId: 'createPortalWebhook',
      summary: 'A portal: subscribe a URL (within the events the link allows)',
      tag,
      body: portalCreateWebhookInput,
      response: webhookWithSecretResponse,
      status: 201,
      ...portal,
      errors: [...portal.errors, 'invalid_webhook_url'],
      examples: { request: { url: 'https://customer.example/hooks', events: ['message.received'] } },
    },
    async (ctx) => {
      const scope = await scopeOf(ctx);
      const input = parseInput(portalCreateWebhookInput, ctx.request.body);
      checkPortalEvents(scope, input.events);
      ctx.status = 201;
      ctx.body = await createWebhook(deps, scope.caller, { ...input, tenant: scope.link.tenant });
    },
  );

  api.patch(
    '/v1/portal/webhooks/:webhookId',
    publicAccess,
    {
      operationId: 'updatePortalWebhook',
      summary: "A portal: change a subscription's URL, events, description or signature scheme",
      tag,
      body: portalUpdateWebhookInput,
      response: webhookChangedResponse,
      ...portal,
      errors: [...portal.errors, 'invalid_webhook_url'],
      examples: { request: { url: 'https://customer.example/hooks/v2' } },
    },
    async (ctx) => {
      const { scope, webhook } = await scopedWebhook(ctx);
      const input = parseInput(portalUpdateWebhookInput, ctx.request.body);
      checkPortalEvents(scope, input.events);
      ctx.body = await changeWebhook(deps, scope.caller, webhook.id, input);
    },
  );

  api.post(
    '/v1/portal/webhooks/:webhookId/rotate-secret',
    publicAccess,
    {
      operationId: 'rotatePortalWebhookSecret',
      summary: "A portal: rotate a subscription's signing key",
      tag,
      body: rotateSecretInput,
      bodyOptional: true,
      response: rotatedSecretResponse,
      ...portal,
      errors: [...portal.errors, 'conflict'],
      examples: { request: { signatureScheme: 'ed25519' } },
    },
    async (ctx) => {
      const { scope, webhook } = await scopedWebhook(ctx);
      const input = parseInput(rotateSecretInput, ctx.request.body ?? {});
      ctx.body = await rotateWebhookSecret(deps, scope.caller, webhook.id, input);
    },
  );

  api.get(
    '/v1/portal/webhooks/:webhookId/deliveries',
    publicAccess,
    {
      operationId: 'listPortalWebhookDeliveries',
      summary: "A portal: a subscription's deliveries",
      tag,
      query: deliveriesQuery,
      response: pageOf(deliveryResponse),
      ...portal,
    },
    async (ctx) => {
      const { scope, webhook } = await scopedWebhook(ctx);
      const query = parseInput(deliveriesQuery, ctx.query);
      ctx.body = await listWebhookDeliveries(deps, scope.link.account_id, webhook.id, query);
    },
  );

  api.get(
    '/v1/portal/webhooks/:webhookId/deliveries/:deliveryId',
    publicAccess,
    {
      operationId: 'getPortalWebhookDelivery',
      summary: 'A portal: a delivery with its request body',
      tag,
      response: deliveryWithEnvelopeResponse,
      ...portal,
    },
    async (ctx) => {
      const { scope, webhook } = await scopedWebhook(ctx);
      ctx.body = await getWebhookDelivery(deps, scope.link.account_id, webhook.id, param(ctx, 'deliveryId'));
    },
  );

  api.get(
    '/v1/portal/webhooks/:webhookId/attempts',
    publicAccess,
    {
      operationId: 'listPortalWebhookAttempts',
      summary: "A portal: a subscription's delivery attempts",
      tag,
      query: attemptsQuery,
      response: pageOf(attemptResponse),
      ...portal,
    },
    async (ctx) => {
      const { scope, webhook } = await scopedWebhook(ctx);
      const query = parseInput(attemptsQuery, ctx.query);
      ctx.body = await listWebhookAttempts(deps, scope.link.account_id, webhook.id, query);
    },
  );

  api.post(
    '/v1/portal/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    publicAccess,
    {
      operationId: 'redeliverPortalWebhookDelivery',
      summary: 'A portal: deliver again (same envelope id)',
      tag,
      response: redeliveryResponse,
      status: 202,
      ...portal,
      errors: [...portal.errors, 'conflict'],
    },
    async (ctx) => {
      const { scope, webhook } = await scopedWebhook(ctx);
      ctx.status = 202;
      ctx.body = await redeliver(deps, scope.caller, webhook.id, param(ctx, 'deliveryId'));
    },
  );
}
