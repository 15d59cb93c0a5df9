import { z } from 'zod';
import { idString, outText, timestamp } from '../platform/output.js';

const runStatus = z.enum(['queued', 'running', 'succeeded', 'failed']);

export const runResponse = z
  .object({
    id: idString('run'),
    agentId: idString('agt'),
    conversationId: idString('conv'),
    status: runStatus,
    inputMessageId: idString('msg').nullable(),
    replyMessageId: idString('msg').nullable(),
    error: outText().nullable(),
    chargedCredits: z.number().int(),
    startedAt: timestamp().nullable(),
    finishedAt: timestamp().nullable(),
    createdAt: timestamp(),
  })
  .meta({ id: 'Run' });

/** The answer to a chat: the run, queued. */
export const runQueuedResponse = z
  .object({
    run: z.object({ id: idString('run'), agentId: idString('agt'), status: runStatus, createdAt: timestamp() }),
  })
  .meta({ id: 'RunQueued' });
