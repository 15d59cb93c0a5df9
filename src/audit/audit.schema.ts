import { z } from 'zod';
import { idString, jsonRecord, outText, timestamp } from '../platform/output.js';

export const auditResponse = z
  .object({
    id: idString('log'),
    action: outText(),
    actor: z.object({ type: z.enum(['user', 'key', 'oauth', 'system']), id: outText().nullable() }),
    target: z.object({ type: outText(), id: outText().nullable() }).nullable(),
    ip: outText().nullable(),
    details: jsonRecord(),
    createdAt: timestamp(),
  })
  .meta({ id: 'AuditEntry' });
