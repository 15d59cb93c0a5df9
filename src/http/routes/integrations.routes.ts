import { requireScope } from '../../auth/access.js';
import {
  connectIntegration,
  disconnectIntegration,
  listIntegrations,
  parseProvider,
} from '../../integrations/integrations.service.js';
import type { Deps } from '../../platform/deps.js';
import { clientIp } from '../client-ip.js';
import { principalOf } from '../middleware/authenticate.js';
import type { ApiRouter } from '../router.js';

export function registerIntegrationRoutes(api: ApiRouter, deps: Deps) {
  api.get('/v1/integrations', requireScope('integrations:read'), async (ctx) => {
    ctx.body = { data: await listIntegrations(deps, principalOf(ctx).accountId), hasMore: false, nextCursor: null };
  });

  api.post('/v1/integrations/:provider', requireScope('integrations:manage'), async (ctx) => {
    const provider = parseProvider(ctx.params.provider!);
    const ip = clientIp(ctx, deps.config.trustProxyHops);
    const { integration, created } = await connectIntegration(deps, principalOf(ctx), provider, ctx.request.body, ip);
    ctx.status = created ? 201 : 200;
    ctx.body = integration;
  });

  api.delete('/v1/integrations/:provider', requireScope('integrations:manage'), async (ctx) => {
    const provider = parseProvider(ctx.params.provider!);
    await disconnectIntegration(deps, principalOf(ctx), provider, clientIp(ctx, deps.config.trustProxyHops));
    ctx.status = 204;
  });
}
