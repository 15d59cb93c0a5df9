import { z } from 'zod';
import { outText, timestamp } from '../platform/output.js';

export const creditsInput = z.object({ amount: z.number().int().min(1).max(1_000_000_000) }).strict();

export const billingResponse = z
  .object({
    plan: z.enum(['free', 'pro']),
    creditsBalance: z.number().int(),
    usage: z.object({
      periodStart: timestamp(),
      creditsUsed: z.number().int(),
      byReason: z.array(z.object({ reason: outText(), credits: z.number().int(), count: z.number().int() })),
    }),
  })
  .meta({ id: 'Billing' });
