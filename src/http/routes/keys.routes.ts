import { adminOnly, agentKeyMinting, requireScope } from '../../auth/access.js';
import { accountKeyInput, agentKeyInput, keyListQuery, keyPatch, toKeyResponse, toKeyWithSecret } from '../../keys/keys.schema.js';
import * as keys from '../../keys/keys.service.js';
import type { Deps } from '../../platform/deps.js';
import { mapPage, pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { clientIp } from '../client-ip.js';
import type { AppContext } from '../context.js';
import { principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

export function registerKeyRoutes(api: ApiRouter, deps: Deps) {
  const ip = (ctx: AppContext) => clientIp(ctx, deps.config.trustProxyHops);
  const id = (ctx: AppContext) => ctx.params.id!;

  api.post('/v1/api_keys', adminOnly, async (ctx) => {
    const issued = await keys.createAccountKey(deps, principalOf(ctx), parseInput(accountKeyInput, ctx.request.body), ip(ctx));
    ctx.status = 201;
    ctx.body = toKeyWithSecret(issued.row, issued.secret);
  }, idempotent('key'));

  api.get('/v1/api_keys', requireScope('read:api_keys'), async (ctx) => {
    const query = parseInput(pageQuery.extend(keyListQuery.shape), ctx.query);
    const page = await keys.listKeys(deps, principalOf(ctx).accountId, query, { agentId: query.agentId });
    ctx.body = mapPage(page, toKeyResponse);
  });

  api.get('/v1/api_keys/:id', requireScope('read:api_keys'), async (ctx) => {
    ctx.body = toKeyResponse(await keys.getKey(deps, principalOf(ctx).accountId, id(ctx)));
  });

  api.patch('/v1/api_keys/:id', adminOnly, async (ctx) => {
    ctx.body = toKeyResponse(await keys.editKey(deps, principalOf(ctx), id(ctx), parseInput(keyPatch, ctx.request.body), ip(ctx)));
  });

  api.post('/v1/api_keys/:id/rotate', adminOnly, async (ctx) => {
    const issued = await keys.rotateKey(deps, principalOf(ctx), id(ctx), ip(ctx));
    ctx.body = toKeyWithSecret(issued.row, issued.secret);
  });

  api.post('/v1/api_keys/:id/deactivate', adminOnly, async (ctx) => {
    ctx.body = toKeyResponse(await keys.deactivateKey(deps, principalOf(ctx), id(ctx), ip(ctx)));
  });

  api.delete('/v1/api_keys/:id', adminOnly, async (ctx) => {
    await keys.deleteKey(deps, principalOf(ctx), id(ctx), ip(ctx));
    ctx.status = 204;
  });

  api.post('/v1/agents/:agentId/api-keys', agentKeyMinting, async (ctx) => {
    const input = parseInput(agentKeyInput, ctx.request.body);
    const issued = await keys.mintAgentKey(deps, principalOf(ctx), ctx.params.agentId!, input, ip(ctx));
    ctx.status = 201;
    ctx.body = toKeyWithSecret(issued.row, issued.secret);
  }, idempotent('key'));
}
