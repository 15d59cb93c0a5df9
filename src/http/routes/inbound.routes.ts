import { publicAccess } from '../../auth/access.js';
import { receiveInbound } from '../../messages/inbound.service.js';
import type { Deps } from '../../platform/deps.js';
import type { ApiRouter } from '../router.js';

// Public by design: the inbox's own ingest token (X-Inbound-Token) is the credential, checked by the service.
export function registerInboundRoutes(api: ApiRouter, deps: Deps) {
  api.post('/v1/inbound/:inboxId', publicAccess, async (ctx) => {
    const token = ctx.get('x-inbound-token') || undefined;
    ctx.status = 201;
    ctx.body = await receiveInbound(deps, ctx.params.inboxId!, token, ctx.request.body);
  });
}
