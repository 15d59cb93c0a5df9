import { publicAccess } from '../../auth/access.js';
import type { Deps } from '../../platform/deps.js';
import type { ApiRouter } from '../router.js';

async function check(probe: () => Promise<unknown>, timeoutMs = 2000): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([probe(), new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), timeoutMs); })]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(api: ApiRouter, deps: Deps) {
  api.get('/healthz', publicAccess, (ctx) => {
    ctx.body = { status: 'ok' };
  });

  api.get('/readyz', publicAccess, async (ctx) => {
    const [postgres, redis] = await Promise.all([check(() => deps.db.raw('select 1')), check(() => deps.redis.ping())]);
    const ready = postgres === 'ok' && redis === 'ok';
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ok' : 'unavailable', checks: { postgres, redis } };
  });
}
