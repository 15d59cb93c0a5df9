import { requireScope } from '../../auth/access.js';
import { inboxInput, inboxPatch } from '../../inboxes/inboxes.schema.js';
import { createInbox, deleteInbox, getInbox, listInboxes, updateInbox } from '../../inboxes/inboxes.service.js';
import type { Deps } from '../../platform/deps.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { principalOf } from '../middleware/authenticate.js';
import { text } from '../../platform/input.js';
import { idempotent, type ApiRouter } from '../router.js';

const inboxListQuery = pageQuery.extend({ agentId: text().max(100).optional() }).strict();

export function registerInboxRoutes(api: ApiRouter, deps: Deps) {
  api.get('/v1/inboxes', requireScope('read:inboxes'), async (ctx) => {
    const { agentId, ...page } = parseInput(inboxListQuery, ctx.query);
    ctx.body = await listInboxes(deps, principalOf(ctx), page, { agentId });
  });

  api.post('/v1/inboxes', requireScope('write:inboxes'), async (ctx) => {
    ctx.status = 201;
    ctx.body = await createInbox(deps, principalOf(ctx), parseInput(inboxInput, ctx.request.body));
  }, idempotent('ingestToken'));

  api.get('/v1/inboxes/:id', requireScope('read:inboxes'), async (ctx) => {
    ctx.body = await getInbox(deps, principalOf(ctx), ctx.params.id!);
  });

  api.patch('/v1/inboxes/:id', requireScope('write:inboxes'), async (ctx) => {
    ctx.body = await updateInbox(deps, principalOf(ctx), ctx.params.id!, parseInput(inboxPatch, ctx.request.body));
  });

  api.delete('/v1/inboxes/:id', requireScope('write:inboxes'), async (ctx) => {
    await deleteInbox(deps, principalOf(ctx), ctx.params.id!);
    ctx.status = 204;
  });
}
