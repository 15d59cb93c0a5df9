import { z } from 'zod';
import { requireScope } from '../../auth/access.js';
import { conversationListQuery, draftInput, messageListQuery } from '../../messages/messages.schema.js';
import { createDraft, getMessage, listConversations, listDrafts, listMessages, sendMessage } from '../../messages/messages.service.js';
import type { Deps } from '../../platform/deps.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

// Account-wide message routes; per-agent keys use /v1/agents/:id/{conversations,drafts} instead.
export function registerMessageRoutes(api: ApiRouter, deps: Deps) {
  api.get('/v1/messages', requireScope('read:messages'), async (ctx) => {
    ctx.body = await listMessages(deps, principalOf(ctx), parseInput(messageListQuery, ctx.query));
  });

  api.post('/v1/messages', requireScope('write:messages'), async (ctx) => {
    ctx.status = 201;
    ctx.body = await createDraft(deps, principalOf(ctx), parseInput(draftInput, ctx.request.body));
  }, idempotent());

  api.get('/v1/messages/:id', requireScope('read:messages'), async (ctx) => {
    ctx.body = await getMessage(deps, principalOf(ctx), ctx.params.id!);
  });

  api.post('/v1/messages/:id/send', requireScope('messages:send'), async (ctx) => {
    parseInput(z.object({}).strict(), ctx.request.body);
    ctx.status = 202;
    ctx.body = await sendMessage(deps, principalOf(ctx), ctx.params.id!);
  }, idempotent());

  api.get('/v1/drafts', requireScope('read:messages'), async (ctx) => {
    ctx.body = await listDrafts(deps, principalOf(ctx), parseInput(pageQuery, ctx.query));
  });

  api.get('/v1/conversations', requireScope('read:messages'), async (ctx) => {
    const { agentId, ...page } = parseInput(conversationListQuery, ctx.query);
    ctx.body = await listConversations(deps, principalOf(ctx), page, { agentId });
  });
}
