import { requireScope } from '../../auth/access.js';
import type { Deps } from '../../platform/deps.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { getWebhookStats } from '../../webhooks/endpoint-stats.service.js';
import { attemptsQuery, createWebhookInput, enableWebhookInput, statsQuery, updateWebhookInput } from '../../webhooks/webhooks.schema.js';
import {
  changeWebhook,
  createWebhook,
  deleteWebhook,
  enableWebhook,
  getWebhook,
  listWebhookAttempts,
  listWebhookDeliveries,
  listWebhookSubscriptions,
  redeliver,
  rotateWebhookSecret,
  sendTestEvent,
  type Actor,
} from '../../webhooks/webhooks.service.js';
import { clientIp } from '../client-ip.js';
import type { AppContext } from '../context.js';
import { principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

export function registerWebhookRoutes(api: ApiRouter, deps: Deps) {
  const read = requireScope('read:webhooks');
  const write = requireScope('write:webhooks');
  const actor = (ctx: AppContext): Actor => ({ principal: principalOf(ctx), ip: clientIp(ctx, deps.config.trustProxyHops) });
  const accountOf = (ctx: AppContext) => principalOf(ctx).accountId;
  const param = (ctx: AppContext, name: string) => String((ctx.params as Record<string, string>)[name]);

  api.post('/v1/webhooks', write, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createWebhook(deps, actor(ctx), parseInput(createWebhookInput, ctx.request.body));
  }, idempotent('secret'));

  api.get('/v1/webhooks', read, async (ctx) => {
    ctx.body = await listWebhookSubscriptions(deps, accountOf(ctx), parseInput(pageQuery, ctx.query));
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
    ctx.body = await listWebhookAttempts(deps, accountOf(ctx), param(ctx, 'id'), parseInput(attemptsQuery, ctx.query));
  });

  api.get('/v1/webhooks/:id/stats', read, async (ctx) => {
    ctx.body = await getWebhookStats(deps, accountOf(ctx), param(ctx, 'id'), parseInput(statsQuery, ctx.query).window);
  });

  api.get('/v1/webhooks/:id/deliveries', read, async (ctx) => {
    ctx.body = await listWebhookDeliveries(deps, accountOf(ctx), param(ctx, 'id'), parseInput(pageQuery, ctx.query));
  });

  api.post('/v1/webhooks/:id/deliveries/:deliveryId/redeliver', write, async (ctx) => {
    ctx.status = 202;
    ctx.body = await redeliver(deps, actor(ctx), param(ctx, 'id'), param(ctx, 'deliveryId'));
  }, idempotent());

  api.post('/v1/webhooks/:id/test', write, async (ctx) => {
    ctx.status = 202;
    ctx.body = await sendTestEvent(deps, actor(ctx), param(ctx, 'id'));
  }, idempotent());
}
