import { requireScope } from '../../auth/access.js';
import { feedItemResponse } from '../../feed/feed.schema.js';
import { listFeed } from '../../feed/feed.service.js';
import { pageOf } from '../../platform/output.js';
import type { Deps } from '../../app/deps.js';
import { pageQuery } from '../../platform/pagination.js';
import { parseInput } from '../../platform/validation.js';
import { principalOf } from '../middleware/authenticate.js';
import type { ApiRouter } from '../router.js';

export function registerFeedRoutes(api: ApiRouter, deps: Deps) {
  api.get(
    '/v1/feed',
    requireScope('read:account'),
    {
      operationId: 'listFeedEvents',
      summary: "List the account's recent events",
      tag: 'Events',
      query: pageQuery,
      response: pageOf(feedItemResponse),
    },
    async (ctx) => {
      ctx.body = await listFeed(deps, principalOf(ctx).accountId, parseInput(pageQuery, ctx.query));
    },
  );
}
