import { z } from 'zod';
import { requireScope } from '../../auth/access.js';
import {
  conversationListQuery,
  conversationResponse,
  draftInput,
  messageListQuery,
  messageResponse,
} from '../../messages/messages.schema.js';
import { pageOf } from '../../platform/output.js';
import {
  createDraft,
  getMessage,
  listConversations,
  listDrafts,
  listMessages,
  sendMessage,
} from '../../messages/messages.service.js';
import type { Deps } from '../../app/deps.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { callerOf, principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

const tag = 'Messages';
const sendInput = z.object({}).strict();

// Account-wide message routes; per-agent keys use /v1/agents/:agentId/{conversations,drafts} instead.
export function registerMessageRoutes(api: ApiRouter, deps: Deps) {
  api.get(
    '/v1/messages',
    requireScope('read:messages'),
    {
      operationId: 'listMessages',
      summary: 'List messages',
      tag,
      query: messageListQuery,
      response: pageOf(messageResponse),
    },
    async (ctx) => {
      ctx.body = await listMessages(deps, principalOf(ctx), parseInput(messageListQuery, ctx.query));
    },
  );

  api.post(
    '/v1/messages',
    requireScope('write:messages'),
    {
      operationId: 'createDraft',
      summary: 'Create a draft (does not send)',
      tag,
      body: draftInput,
      response: messageResponse,
      status: 201,
      errors: ['not_found', 'inbox_deleted'],
      examples: {
        request: {
          inboxId: 'inb_8Kd2PzW5qLr0Tb3Xn7Vm',
          to: 'grace@example.com',
          subject: 'Your order',
          text: 'It ships today.',
        },
      },
    },
    async (ctx) => {
      ctx.status = 201;
      ctx.body = await createDraft(deps, callerOf(ctx), parseInput(draftInput, ctx.request.body));
    },
    idempotent(),
  );

  api.get(
    '/v1/messages/:messageId',
    requireScope('read:messages'),
    { operationId: 'getMessage', summary: 'Get a message', tag, response: messageResponse },
    async (ctx) => {
      ctx.body = await getMessage(deps, principalOf(ctx), ctx.params.messageId!);
    },
  );

  api.post(
    '/v1/messages/:messageId/send',
    requireScope('messages:send'),
    {
      operationId: 'sendMessage',
      summary: 'Send a draft',
      tag,
      body: sendInput,
      bodyOptional: true,
      response: messageResponse,
      status: 202,
      spends: true,
      errors: ['conflict', 'inbox_deleted'],
      description:
        "Queues the draft for sending through the account's integration or the platform transport. Costs 1 credit (email) or 2 (SMS).",
      examples: { request: {} },
    },
    async (ctx) => {
      parseInput(sendInput, ctx.request.body);
      ctx.status = 202;
      ctx.body = await sendMessage(deps, callerOf(ctx), ctx.params.messageId!);
    },
    idempotent(),
  );

  api.get(
    '/v1/drafts',
    requireScope('read:messages'),
    { operationId: 'listDrafts', summary: 'List drafts', tag, query: pageQuery, response: pageOf(messageResponse) },
    async (ctx) => {
      ctx.body = await listDrafts(deps, principalOf(ctx), parseInput(pageQuery, ctx.query));
    },
  );

  api.get(
    '/v1/conversations',
    requireScope('read:messages'),
    {
      operationId: 'listConversations',
      summary: 'List conversations',
      tag,
      query: conversationListQuery,
      response: pageOf(conversationResponse),
    },
    async (ctx) => {
      const { agentId, ...page } = parseInput(conversationListQuery, ctx.query);
      ctx.body = await listConversations(deps, principalOf(ctx), page, { agentId });
    },
  );
}
