import { adminOnly, requireScope } from '../../auth/access.js';
import { billingResponse, creditsInput } from '../../billing/billing.schema.js';
import { addCredits, getBilling } from '../../billing/billing.service.js';
import type { Deps } from '../../app/deps.js';
import { parseInput } from '../../platform/validation.js';
import { callerOf, principalOf } from '../middleware/authenticate.js';
import { idempotent, type ApiRouter } from '../router.js';

export function registerBillingRoutes(api: ApiRouter, deps: Deps) {
  api.get(
    '/v1/billing',
    requireScope('read:billing'),
    {
      operationId: 'getBilling',
      summary: 'Get the plan, balance and usage',
      tag: 'Account',
      response: billingResponse,
    },
    async (ctx) => {
      ctx.body = await getBilling(deps, principalOf(ctx).accountId);
    },
  );

  api.post(
    '/v1/billing/credits',
    adminOnly,
    {
      operationId: 'addCredits',
      summary: 'Add credits',
      tag: 'Account',
      body: creditsInput,
      response: billingResponse,
      examples: { request: { amount: 500 } },
    },
    async (ctx) => {
      const { amount } = parseInput(creditsInput, ctx.request.body);
      ctx.body = await addCredits(deps, callerOf(ctx), amount);
    },
    idempotent(),
  );
}
