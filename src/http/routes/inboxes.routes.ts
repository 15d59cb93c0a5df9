import { requireScope } from '../../auth/access.js';
import { inboxInput, inboxPatch, inboxResponse, inboxWithTokenResponse } from '../../inboxes/inboxes.schema.js';
import { pageOf } from '../../platform/output.js';
import { createInbox, deleteInbox, getInbox, listInboxes, updateInbox } from '../../inboxes/inboxes.service.js';
import type { Deps } from '../../app/deps.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { callerOf, principalOf } from '../middleware/authenticate.js';
import { text } from '../../platform/input.js';
import { idempotent, type ApiRouter } from '../router.js';

const inboxListQuery = pageQuery.extend({ agentId: text().max(100).optional() }).strict();

const tag = 'Inboxes';

export function registerInboxRoutes(api: ApiRouter, deps: Deps) {
  api.get(
    '/v1/inboxes',
    requireScope('read:inboxes'),
    {
      operationId: 'listInboxes',
      summary: 'List inboxes',
      tag,
      query: inboxListQuery,
      response: pageOf(inboxResponse),
    },
    async (ctx) => {
      const { agentId, ...page } = parseInput(inboxListQuery, ctx.query);
      ctx.body = await listInboxes(deps, principalOf(ctx), page, { agentId });
    },
  );

  api.post(
    '/v1/inboxes',
    requireScope('write:inboxes'),
    {
      operationId: 'createInbox',
      summary: 'Create an inbox',
      tag,
      body: inboxInput,
      response: inboxWithTokenResponse,
      status: 201,
      errors: ['not_found', 'conflict'],
      examples: {
        request: {
          agentId: 'agt_5Vb0QmLr8TzXc1Nh2Kp4',
          channel: 'email',
          address: 'support@mail.example.com',
          name: 'Support',
        },
      },
    },
    async (ctx) => {
      ctx.status = 201;
      ctx.body = await createInbox(deps, callerOf(ctx), parseInput(inboxInput, ctx.request.body));
    },
    idempotent('ingestToken'),
  );

  api.get(
    '/v1/inboxes/:inboxId',
    requireScope('read:inboxes'),
    { operationId: 'getInbox', summary: 'Get an inbox', tag, response: inboxResponse },
    async (ctx) => {
      ctx.body = await getInbox(deps, principalOf(ctx), ctx.params.inboxId!);
    },
  );

  api.patch(
    '/v1/inboxes/:inboxId',
    requireScope('write:inboxes'),
    {
      operationId: 'updateInbox',
      summary: 'Update an inbox',
      tag,
      body: inboxPatch,
      response: inboxResponse,
      errors: ['conflict', 'inbox_deleted'],
      examples: { request: { name: 'Support (EU)' } },
    },
    async (ctx) => {
      ctx.body = await updateInbox(deps, callerOf(ctx), ctx.params.inboxId!, parseInput(inboxPatch, ctx.request.body));
    },
  );

  api.delete(
    '/v1/inboxes/:inboxId',
    requireScope('write:inboxes'),
    { operationId: 'deleteInbox', summary: 'Delete an inbox', tag, response: null },
    async (ctx) => {
      await deleteInbox(deps, callerOf(ctx), ctx.params.inboxId!);
      ctx.status = 204;
    },
  );
}
