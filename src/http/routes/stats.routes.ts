import { requireScope } from '../../auth/access.js';
import type { Deps } from '../../app/deps.js';
import { statsResponse } from '../../stats/stats.schema.js';
import { getAccountStats } from '../../stats/stats.service.js';
import { principalOf } from '../middleware/authenticate.js';
import type { ApiRouter } from '../router.js';

export function registerStatsRoutes(api: ApiRouter, deps: Deps) {
  api.get(
    '/v1/stats',
    requireScope('read:account'),
    { operationId: 'getStats', summary: 'Account-wide counts', tag: 'Account', response: statsResponse },
    async (ctx) => {
      ctx.body = await getAccountStats(deps, principalOf(ctx).accountId);
    },
  );
}
