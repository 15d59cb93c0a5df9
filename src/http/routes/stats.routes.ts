import { requireScope } from '../../auth/access.js';
import type { Deps } from '../../platform/deps.js';
import { getAccountStats } from '../../stats/stats.service.js';
import { principalOf } from '../middleware/authenticate.js';
import type { ApiRouter } from '../router.js';

export function registerStatsRoutes(api: ApiRouter, deps: Deps) {
  api.get('/v1/stats', requireScope('read:account'), async (ctx) => {
    ctx.body = await getAccountStats(deps, principalOf(ctx).accountId);
  });
}
