import { z } from 'zod';
import { iso } from '../platform/clock.js';
import type { AgentRow } from './agents.repository.js';
import { jsonObject, text } from '../platform/input.js';
import { idString, jsonRecord, outText, timestamp } from '../platform/output.js';

/** The largest config, as UTF-8 JSON; the bound keeps one agent from bloating rows. */
export const MAX_CONFIG_BYTES = 64 * 1024;

const name = text().trim().min(1).max(200);

/** A config or a merge patch (RFC 7396): a JSON object, judged by the shared free-form JSON rule. */
const configObject = jsonObject(MAX_CONFIG_BYTES);

export const agentInput = z.object({ name, config: configObject.optional() }).strict();

export const agentPatch = z
  .object({
    name: name.optional(),
    status: z.enum(['active', 'paused']).optional(),
    config: configObject.optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, 'send at least one of name, status, config');

export type AgentInput = z.infer<typeof agentInput>;
export type AgentPatch = z.infer<typeof agentPatch>;

/** The parts of a config the service itself reads; the rest is the agent's own business. */
export const knownConfig = z
  .object({
    runtime: z
      .object({
        type: z.literal('http'),
        url: text()
          .url()
          .regex(/^https?:\/\//i, 'must be an http(s) URL'),
      })
      .strict()
      .optional(),
    autoReply: text().max(10_000).optional(),
  })
  .passthrough();

export const toAgentResponse = (a: AgentRow) => ({
  id: a.id,
  name: a.name,
  status: a.status,
  config: a.config,
  createdAt: iso(a.created_at),
  updatedAt: iso(a.updated_at),
});
export type AgentResponse = ReturnType<typeof toAgentResponse>;

export const agentResponse = z
  .object({
    id: idString('agt'),
    name: outText().meta({ examples: ['Support'] }),
    status: z.enum(['active', 'paused']),
    config: jsonRecord(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  })
  .meta({ id: 'Agent' });
