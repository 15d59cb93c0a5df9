import { authenticated } from '../../auth/access.js';
import { eventTypeResponse } from '../../feed/feed.schema.js';
import { describeEventTypes } from '../../feed/feed.service.js';
import { pageOf } from '../../platform/output.js';
import type { Deps } from '../../app/deps.js';
import type { ApiRouter } from '../router.js';

export function registerEventTypeRoutes(api: ApiRouter, _deps: Deps) {
  // Catalog metadata, not tenant data: any session or account key may read it (a client building webhook
  // subscriptions needs it whatever its scopes). Per-agent keys stay off account routes, as everywhere.
  api.get(
    '/v1/event-types',
    authenticated,
    {
      operationId: 'listEventTypes',
      summary: 'List the event catalog',
      tag: 'Events',
      response: pageOf(eventTypeResponse),
      description:
        'Every event a subscription may name, whether it is produced yet, and the JSON Schema of its delivery (the same zod source as the `webhooks` of this document).',
    },
    async (ctx) => {
      ctx.body = { data: describeEventTypes(), hasMore: false, nextCursor: null };
    },
  );
}
