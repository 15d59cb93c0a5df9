import { authenticated } from '../../auth/access.js';
import { describeEventTypes } from '../../feed/feed.service.js';
import type { Deps } from '../../platform/deps.js';
import type { ApiRouter } from '../router.js';

export function registerEventTypeRoutes(api: ApiRouter, _deps: Deps) {
  // Catalog metadata, not tenant data: any session or account key may read it (a client building webhook
  // subscriptions needs it whatever its scopes). Per-agent keys stay off account routes, as everywhere.
  api.get('/v1/event-types', authenticated, async (ctx) => {
    ctx.body = { data: describeEventTypes(), hasMore: false, nextCursor: null };
  });
}
