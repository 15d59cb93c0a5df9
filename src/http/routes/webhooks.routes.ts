import { requireScope } from '../../auth/access.js';
import type { Deps } from '../../platform/deps.js';
import { mapPage, pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { createWebhookInput, enableWebhookInput, updateWebhookInput } from '../../webhooks/webhooks.schema.js';
import {
  changeWebhook,
  createWebhook,
  deleteWebhook,
  enableWebhook,
  getWebhook,
  redeliver,
  rotateWebhookSecret,
  sendTestEvent,
  type Actor,
} from '../../webhooks/webhooks.service.js';
import { findWebhook, listAttempts, listDeliveries, listWebhooks, toAttemptResponse, toDeliveryResponse, toWebhookResponse } from '../../webhooks/webhooks.repository.js';
import { notFound } from '../../platform/errors.js';
import { clientIp } from '../client-ip.js';
import type { AppContext } from '../context.js';
import { principalOf } from '../middleware/authenticate.js';
import type { ApiRouter } from '../router.js';

export function registerWebhookRoutes(api: ApiRouter, deps: Deps) {
  const read = requireScope('read:webhooks');
  const write = requireScope('write:webhooks');
  const actor = (ctx: AppContext): Actor => ({ principal: principalOf(ctx), ip: clientIp(ctx, deps.config.trustProxyHops) });
  const accountOf = (ctx: AppContext) => principalOf(ctx).accountId;
  const param = (ctx: AppContext, name: string) => String((ctx.params as Record<string, string>)[name]);
  const ownWebhook = async (ctx: AppContext) => {
    if (!(await findWebhook(deps.db, accountOf(ctx), param(ctx, 'id')))) throw notFound('Webhook');
  };

  api.post('/v1/webhooks', write, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createWebhook(deps, actor(ctx), parseInput(createWebhookInput, ctx.request.body));
  });

  api.get('/v1/webhooks', read, async (ctx) => {
    ctx.body = mapPage(await listWebhooks(deps.db, accountOf(ctx), parseInput(pageQuery, ctx.query)), toWebhookResponse);
  });

  api.get('/v1/webhooks/:id', read, async (ctx) => {
    ctx.body = await getWebhook(deps, accountOf(ctx), param(ctx, 'id'));
  });

  api.patch('/v1/webhooks/:id', write, async (ctx) => {
    ctx.body = await changeWebhook(deps, actor(ctx), param(ctx, 'id'), parseInput(updateWebhookInput, ctx.request.body));
  });

  api.delete('/v1/webhooks/:id', write, async (ctx) => {
    await deleteWebhook(deps, actor(ctx), param(ctx, 'id'));
    ctx.status = 204;
  });

  api.post('/v1/webhooks/:id/rotate-secret', write, async (ctx) => {
    ctx.body = await rotateWebhookSecret(deps, actor(ctx), param(ctx, 'id'));
  });

  api.post('/v1/webhooks/:id/enable', write, async (ctx) => {
    const input = parseInput(enableWebhookInput, ctx.request.body ?? {});
    ctx.body = await enableWebhook(deps, actor(ctx), param(ctx, 'id'), input.recoverSince);
  });

  api.get('/v1/webhooks/:id/attempts', read, async (ctx) => {
    await ownWebhook(ctx);
    const page = parseInput(pageQuery, ctx.query);
    const deliveryId = typeof ctx.query.deliveryId === 'string' && /^[0-9a-f-]{36}$/i.test(ctx.query.deliveryId) ? ctx.query.deliveryId : undefined;
    ctx.body = mapPage(await listAttempts(deps.db, accountOf(ctx), param(ctx, 'id'), page, deliveryId), toAttemptResponse);
  });

  api.get('/v1/webhooks/:id/deliveries', read, async (ctx) => {
    await ownWebhook(ctx);
    ctx.body = mapPage(await listDeliveries(deps.db, accountOf(ctx), param(ctx, 'id'), parseInput(pageQuery, ctx.query)), toDeliveryResponse);
  });

  api.post('/v1/webhooks/:id/deliveries/:deliveryId/redeliver', write, async (ctx) => {
    ctx.status = 202;
    ctx.body = await redeliver(deps, actor(ctx), param(ctx, 'id'), param(ctx, 'deliveryId'));
  });

  api.post('/v1/webhooks/:id/test', write, async (ctx) => {
    ctx.status = 202;
    ctx.body = await sendTestEvent(deps, actor(ctx), param(ctx, 'id'));
  });
}
