import { z } from 'zod';
import { iso } from '../platform/clock.js';
import type { AgentRow } from './agents.repository.js';
import { isJsonObject } from './merge-patch.js';

const MAX_CONFIG_BYTES = 64 * 1024;

const name = z.string().trim().min(1).max(200);

/** A config or merge patch: a JSON object of bounded size (the size bound keeps one agent from bloating rows). */
const configObject = z
  .unknown()
  .refine(isJsonObject, 'must be a JSON object (a JSON merge patch, RFC 7396)')
  .refine((v) => JSON.stringify(v).length <= MAX_CONFIG_BYTES, `must serialize to at most ${MAX_CONFIG_BYTES} bytes`)
  .transform((v) => v as Record<string, unknown>);

export const agentInput = z.object({ name, config: configObject.optional() }).strict();

export const agentPatch = z.object({
  name: name.optional(),
  status: z.enum(['active', 'paused']).optional(),
  config: configObject.optional(),
}).strict().refine((p) => Object.keys(p).length > 0, 'send at least one of name, status, config');

export type AgentInput = z.infer<typeof agentInput>;
export type AgentPatch = z.infer<typeof agentPatch>;

/** The parts of a config the service itself reads; the rest is the agent's own business. */
export const knownConfig = z.object({
  runtime: z.object({ type: z.literal('http'), url: z.string().url().regex(/^https?:\/\//i, 'must be an http(s) URL') }).strict().optional(),
  autoReply: z.string().max(10_000).optional(),
}).passthrough();

export const toAgentResponse = (a: AgentRow) => ({
  id: a.id,
  name: a.name,
  status: a.status,
  config: a.config,
  createdAt: iso(a.created_at),
  updatedAt: iso(a.updated_at),
});
export type AgentResponse = ReturnType<typeof toAgentResponse>;
