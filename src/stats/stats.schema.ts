import { z } from 'zod';
import { outText, timestamp } from '../platform/output.js';

const breakdown = z.record(outText(), z.number().int());
const counts = z.object({ total: z.number().int() }).catchall(breakdown);

export const statsResponse = z
  .object({
    agents: counts,
    contacts: counts,
    inboxes: counts,
    conversations: counts,
    messages: counts,
    runs: counts,
    webhooks: counts,
    apiKeys: counts,
    domains: counts,
    integrations: counts,
    generatedAt: timestamp(),
  })
  .meta({ id: 'AccountStats' });
