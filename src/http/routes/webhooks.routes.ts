import { requireScope } from '../../auth/access.js';
import type { Deps } from '../../app/deps.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { getWebhookStats } from '../../webhooks/endpoint-stats.service.js';
import { attemptResponse, deliveryResponse, deliveryWithEnvelopeResponse } from '../../webhooks/deliveries.schema.js';
import {
  attemptsQuery,
  createWebhookInput,
  deliveriesQuery,
  enableWebhookInput,
  testWebhookInput,
  redeliveryResponse,
  rotateSecretInput,
  rotatedSecretResponse,
  statsQuery,
  testDeliveryResponse,
  updateWebhookInput,
  webhookChangedResponse,
  webhookEnabledResponse,
  webhookResponse,
  webhookStatsResponse,
  webhookWithSecretResponse,
} from '../../webhooks/webhooks.schema.js';
import { pageOf } from '../../platform/output.js';
import {
  changeWebhook,
  createWebhook,
  deleteWebhook,
  disableWebhook,
  enableWebhook,
  getWebhook,
  getWebhookDelivery,
  listWebhookAttempts,
  listWebhookDeliveries,
  listWebhookSubscriptions,
  redeliver,
  rotateWebhookSecret,
  sendTestEvent,
} from '../../webhooks/webhooks.service.js';
import { CREATED_KINDS, KIND_FIELDS } from '../../delivery/kinds/registry.js';
import type { AppContext } from '../context.js';
import { callerOf, principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

const tag = 'Webhooks';
const WEBHOOK_EXAMPLE = {
  id: 'wh_4Fp7XcN2bQz9Lm1Tr8Ys',
  kind: 'http',
  url: 'https://example.com/hooks/switchboard',
  ...Object.fromEntries(KIND_FIELDS.map((f) => [f.name, null])),
  events: ['message.received'],
  description: 'orders',
  status: 'active',
  hasLegacySecret: false,
  consecutiveFailures: 0,
  rateLimitPerSecond: null,
  tenant: null,
  ordering: 'none',
  signatureScheme: 'hmac-sha256',
  publicKey: null,
  previousPublicKey: null,
  filter: null,
  disabledAt: null,
  disabledReason: null,
  previousSecretExpiresAt: null,
  mcp: null,
  createdAt: '2026-11-01T09:30:00.000Z',
  updatedAt: '2026-11-01T09:30:00.000Z',
  secret: '<SIGNING_SECRET>',
};

export function registerWebhookRoutes(api: ApiRouter, deps: Deps) {
  const read = requireScope('read:webhooks');
  const write = requireScope('write:webhooks');
  const accountOf = (ctx: AppContext) => principalOf(ctx).accountId;
  const param = (ctx: AppContext, name: string) => String((ctx.params as Record<string, string>)[name]);

  api.post(
    '/v1/webhooks',
    write,
    {
      operationId: 'createWebhook',
      summary: 'Subscribe a URL to events',
      tag,
      body: createWebhookInput,
      response: webhookWithSecretResponse,
      status: 201,
      errors: ['invalid_webhook_url'],
      description:
        `The destination kinds (docs/webhooks.md#destination-kinds): ${CREATED_KINDS.map((k) => `${k.name}${k.fields.length ? ` (with ${k.fields.map((f) => `\`${f.name}\``).join(', ')})` : ''}: ${k.description}`).join('; ')}. An http URL must be a public https:// address; a URL that carries a credential (a broker's) is sealed and never returned with its password. A poll subscription has no URL: the consumer polls GET /v1/webhooks/{webhookId}/poll with \`pollCredential\` (whpoll_…), shown in this answer only. ` +
        'The signing secret (`secret`) is shown in this answer only; with `signatureScheme: "ed25519"` there is none to show: `publicKey` (whpk_…, readable on every GET) verifies the deliveries, and a `legacySecret` is refused. With `ordering: "key"`, every event type named must have an ordering key (GET /v1/event-types `orderingKey`), else 400 naming the type.',
      examples: {
        request: {
          url: 'https://example.com/hooks/switchboard',
          events: ['message.received'],
          description: 'orders',
          filter: { channel: { $in: ['sms', 'email'] } },
        },
        response: WEBHOOK_EXAMPLE,
      },
    },
    async (ctx) => {
      ctx.status = 201;
      ctx.body = await createWebhook(deps, callerOf(ctx), parseInput(createWebhookInput, ctx.request.body));
    },
    idempotent('secret', 'pollCredential'),
  );

  api.get(
    '/v1/webhooks',
    read,
    {
      operationId: 'listWebhooks',
      summary: 'List webhook subscriptions',
      tag,
      query: pageQuery,
      response: pageOf(webhookResponse),
    },
    async (ctx) => {
      ctx.body = await listWebhookSubscriptions(deps, accountOf(ctx), parseInput(pageQuery, ctx.query));
    },
  );

  api.get(
    '/v1/webhooks/:webhookId',
    read,
    { operationId: 'getWebhook', summary: 'Get a webhook subscription', tag, response: webhookResponse },
    async (ctx) => {
      ctx.body = await getWebhook(deps, accountOf(ctx), param(ctx, 'webhookId'));
    },
  );

  api.patch(
    '/v1/webhooks/:webhookId',
    write,
    {
      operationId: 'updateWebhook',
      summary: 'Update a webhook subscription',
      tag,
      body: updateWebhookInput,
      response: webhookChangedResponse,
      errors: ['invalid_webhook_url', 'conflict'],
      description:
        'A new `signatureScheme` makes a new key of that scheme (a new whsec_ is in `secret`, shown this once; a new ed25519 key shows its `publicKey`); the old key keeps signing beside it for 24 h, as after a rotation.',
      examples: { request: { events: ['message.received', 'message.sent'], rateLimitPerSecond: 20, ordering: 'key' } },
    },
    async (ctx) => {
      ctx.body = await changeWebhook(
        deps,
        callerOf(ctx),
        param(ctx, 'webhookId'),
        parseInput(updateWebhookInput, ctx.request.body),
      );
    },
  );

  api.delete(
    '/v1/webhooks/:webhookId',
    write,
    { operationId: 'deleteWebhook', summary: 'Delete a webhook subscription', tag, response: null },
    async (ctx) => {
      await deleteWebhook(deps, callerOf(ctx), param(ctx, 'webhookId'));
      ctx.status = 204;
    },
  );

  api.post(
    '/v1/webhooks/:webhookId/rotate-secret',
    write,
    {
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the signing key (24 h overlap)',
      tag,
      body: rotateSecretInput,
      bodyOptional: true,
      response: rotatedSecretResponse,
      errors: ['conflict'],
      description:
        "A new key of the subscription's own scheme: a whsec_ (`secret`, shown this once) or an ed25519 pair (`publicKey`; `secret` is null). The old key keeps signing beside the new one until `previousSecretExpiresAt`. `signatureScheme`, when sent, must be the subscription's: another is a 400 naming it, and nothing changes.",
      examples: { request: { signatureScheme: 'ed25519' } },
    },
    async (ctx) => {
      const input = parseInput(rotateSecretInput, ctx.request.body ?? {});
      ctx.body = await rotateWebhookSecret(deps, callerOf(ctx), param(ctx, 'webhookId'), input);
    },
  );

  api.post(
    '/v1/webhooks/:webhookId/enable',
    write,
    {
      operationId: 'enableWebhook',
      summary: 'Enable a subscription (zeroes its failure count)',
      tag,
      body: enableWebhookInput,
      bodyOptional: true,
      response: webhookEnabledResponse,
      description: 'With `recoverSince`, the deliveries that failed since then are queued again.',
      examples: { request: { recoverSince: '2026-11-01T08:00:00.000Z' } },
    },
    async (ctx) => {
      const input = parseInput(enableWebhookInput, ctx.request.body ?? {});
      ctx.body = await enableWebhook(deps, callerOf(ctx), param(ctx, 'webhookId'), input.recoverSince);
    },
  );

  api.post(
    '/v1/webhooks/:webhookId/disable',
    write,
    {
      operationId: 'disableWebhook',
      summary: 'Disable a subscription by hand',
      tag,
      response: webhookResponse,
      description:
        'No delivery is attempted until POST /v1/webhooks/:id/enable; pending deliveries stop at their next attempt (enable with `recoverSince` sends them again). Disabling a disabled subscription changes nothing.',
    },
    async (ctx) => {
      ctx.body = await disableWebhook(deps, callerOf(ctx), param(ctx, 'webhookId'));
    },
  );

  api.get(
    '/v1/webhooks/:webhookId/attempts',
    read,
    {
      operationId: 'listWebhookAttempts',
      summary: 'List delivery attempts',
      tag,
      query: attemptsQuery,
      response: pageOf(attemptResponse),
    },
    async (ctx) => {
      ctx.body = await listWebhookAttempts(
        deps,
        accountOf(ctx),
        param(ctx, 'webhookId'),
        parseInput(attemptsQuery, ctx.query),
      );
    },
  );

  api.get(
    '/v1/webhooks/:webhookId/stats',
    read,
    {
      operationId: 'getWebhookStats',
      summary: 'Endpoint health over a window',
      tag,
      query: statsQuery,
      response: webhookStatsResponse,
    },
    async (ctx) => {
      ctx.body = await getWebhookStats(
        deps,
        accountOf(ctx),
        param(ctx, 'webhookId'),
        parseInput(statsQuery, ctx.query).window,
      );
    },
  );

  api.get(
    '/v1/webhooks/:webhookId/deliveries',
    read,
    {
      operationId: 'listWebhookDeliveries',
      summary: 'List deliveries',
      tag,
      query: deliveriesQuery,
      response: pageOf(deliveryResponse),
    },
    async (ctx) => {
      ctx.body = await listWebhookDeliveries(
        deps,
        accountOf(ctx),
        param(ctx, 'webhookId'),
        parseInput(deliveriesQuery, ctx.query),
      );
    },
  );

  api.get(
    '/v1/webhooks/:webhookId/deliveries/:deliveryId',
    read,
    {
      operationId: 'getWebhookDelivery',
      summary: 'Get a delivery with its request body',
      description:
        '`envelope` is the body every attempt of this delivery sends: `JSON.stringify(envelope)` is the exact text the signature covers.',
      tag,
      response: deliveryWithEnvelopeResponse,
    },
    async (ctx) => {
      ctx.body = await getWebhookDelivery(deps, accountOf(ctx), param(ctx, 'webhookId'), param(ctx, 'deliveryId'));
    },
  );

  api.post(
    '/v1/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    write,
    {
      operationId: 'redeliverWebhookDelivery',
      summary: 'Deliver again (same envelope id)',
      tag,
      response: redeliveryResponse,
      status: 202,
      errors: ['conflict'],
    },
    async (ctx) => {
      ctx.status = 202;
      ctx.body = await redeliver(deps, callerOf(ctx), param(ctx, 'webhookId'), param(ctx, 'deliveryId'));
    },
    idempotent(),
  );

  api.post(
    '/v1/webhooks/:webhookId/test',
    write,
    {
      operationId: 'sendWebhookTest',
      summary: 'Send a webhook.test event to this subscription',
      description: 'Always a webhook.test event; a body, if sent, is empty: a field such as `event` is refused.',
      tag,
      body: testWebhookInput,
      bodyOptional: true,
      examples: { request: {} },
      response: testDeliveryResponse,
      status: 202,
      errors: ['conflict'],
    },
    async (ctx) => {
      parseInput(testWebhookInput, ctx.request.body ?? {});
      ctx.status = 202;
      ctx.body = await sendTestEvent(deps, callerOf(ctx), param(ctx, 'webhookId'));
    },
    idempotent(),
  );
}
