import { z } from 'zod';
import { adminOnly, requireScope } from '../../auth/access.js';
import { addCredits, getBilling } from '../../billing/billing.service.js';
import type { Deps } from '../../platform/deps.js';
import { parseInput } from '../../platform/validation.js';
import { clientIp } from '../client-ip.js';
import { principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

const creditsInput = z.object({ amount: z.number().int().min(1).max(1_000_000_000) }).strict();

export function registerBillingRoutes(api: ApiRouter, deps: Deps) {
  api.get('/v1/billing', requireScope('read:billing'), async (ctx) => {
    ctx.body = await getBilling(deps, principalOf(ctx).accountId);
  });

  api.post('/v1/billing/credits', adminOnly, async (ctx) => {
    const { amount } = parseInput(creditsInput, ctx.request.body);
    ctx.body = await addCredits(deps, principalOf(ctx), amount, clientIp(ctx, deps.config.trustProxyHops));
  }, idempotent());
}
