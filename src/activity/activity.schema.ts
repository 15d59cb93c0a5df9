import { z } from 'zod';
import { idString, jsonRecord, outText, timestamp } from '../platform/output.js';

export const activityResponse = z
  .object({
    id: idString('act'),
    agentId: idString('agt').nullable(),
    kind: outText(),
    subject: z.object({ type: outText(), id: outText() }),
    summary: outText(),
    data: jsonRecord(),
    createdAt: timestamp(),
  })
  .meta({ id: 'Activity' });
