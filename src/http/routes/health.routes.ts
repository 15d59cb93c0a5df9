import { z } from 'zod';
import { publicAccess } from '../../auth/access.js';
import type { Deps } from '../../app/deps.js';
import type { ApiRouter } from '../router.js';

async function check(probe: () => Promise<unknown>, timeoutMs = 2000): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

const probeResult = z.enum(['ok', 'down']);
const readiness = z.object({
  status: z.enum(['ok', 'unavailable', 'draining']),
  checks: z.object({ postgres: probeResult, redis: probeResult }),
});

export function registerHealthRoutes(api: ApiRouter, deps: Deps) {
  api.get(
    '/healthz',
    publicAccess,
    { operationId: 'checkLiveness', summary: 'Liveness', tag: 'Meta', response: z.object({ status: z.literal('ok') }) },
    (ctx) => {
      ctx.body = { status: 'ok' };
    },
  );

  api.get(
    '/readyz',
    publicAccess,
    {
      operationId: 'checkReadiness',
      summary: 'Readiness: Postgres and Redis answer',
      tag: 'Meta',
      response: readiness,
      status: [200, 503],
      description:
        '503 (with the same body) while Postgres or Redis does not answer, and from the moment the process ' +
        'starts shutting down (status "draining"), so that a load balancer sends new requests elsewhere.',
    },
    async (ctx) => {
      const [postgres, redis] = await Promise.all([
        check(() => deps.db.raw('select 1')),
        check(() => deps.redis.ping()),
      ]);
      const ready = postgres === 'ok' && redis === 'ok' && !deps.lifecycle.draining;
      ctx.status = ready ? 200 : 503;
      const status = deps.lifecycle.draining ? 'draining' : ready ? 'ok' : 'unavailable';
      ctx.body = { status, checks: { postgres, redis } };
    },
  );
}
