import { z } from 'zod';
import { EVENT_TYPES } from '../../events/event-types.js';
import { text } from '../../platform/input.js';
import { invalidParams, unsupported } from './webhook-errors.js';

// The params of events/subscribe and events/unsubscribe (docs/mcp-events-webhook.md), read with zod. Fields the
// sketch defines and this server does not act on (`maxAgeMs`, `_meta`) are accepted and passed over.

/** A subscription's `arguments` for each family of events: what narrows it, each an exact value of the payload. */
const id = text().min(1).max(100);
const ARGUMENTS = {
  message: z.object({ agentId: id.optional(), inboxId: id.optional(), conversationId: id.optional() }).strict(),
  inbox: z.object({ agentId: id.optional(), inboxId: id.optional() }).strict(),
  agent: z.object({ agentId: id.optional() }).strict(),
  contact: z.object({ contactId: id.optional() }).strict(),
  other: z.object({}).strict(),
};

/** The payload field each argument is compared with (the rest compare the field of the same name). */
const FIELD_OF: Record<string, Record<string, string>> = {
  inbox: { inboxId: 'id' },
  agent: { agentId: 'id' },
  contact: { contactId: 'id' },
};

export interface ReadArguments {
  /** As given, keys sorted: the canonical form the subscription's id is derived from. */
  canonical: Record<string, string>;
  /** The payload filter they select (docs/webhook-filters.md). */
  filter: Record<string, string>;
}

/** The events webhook mode offers: every emitted type of the catalog. */
export const isOfferedEvent = (name: string): boolean =>
  (EVENT_TYPES as Record<string, { status: string }>)[name]?.status === 'emitted';

export function readArguments(name: string, value: unknown): ReadArguments {
  const family = name.slice(0, name.indexOf('.'));
  const schema = ARGUMENTS[family as keyof typeof ARGUMENTS] ?? ARGUMENTS.other;
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({ field: ['arguments', ...i.path].join('.'), message: i.message }));
    throw invalidParams(`arguments do not match the inputSchema of ${name}`, { fields });
  }
  const canonical: Record<string, string> = {};
  const filter: Record<string, string> = {};
  for (const key of Object.keys(parsed.data).sort()) {
    const v = (parsed.data as Record<string, string | undefined>)[key];
    if (v === undefined) continue;
    canonical[key] = v;
    filter[FIELD_OF[family]?.[key] ?? key] = v;
  }
  return { canonical, filter };
}

/** Standard Webhooks' symmetric secret: whsec_ and the base64 of 24 to 64 bytes. */
export function isStandardSecret(secret: string): boolean {
  if (!secret.startsWith('whsec_')) return false;
  const b64 = secret.slice('whsec_'.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return false;
  const bytes = Buffer.from(b64, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

const subscribeParams = z.object({
  name: text().min(1).max(200),
  arguments: z.record(text(), z.unknown()).optional(),
  delivery: z.looseObject({ mode: text().optional(), url: text().max(2048), secret: text().max(200) }),
  cursor: text().max(500).nullable().optional(),
  ttlMs: z.number().int().min(0).nullable().optional(),
});

const unsubscribeParams = z.object({
  name: text().min(1).max(200),
  arguments: z.record(text(), z.unknown()).optional(),
  delivery: z.looseObject({ url: text().max(2048) }),
});

export type SubscribeParams = z.infer<typeof subscribeParams>;
export type UnsubscribeParams = z.infer<typeof unsubscribeParams>;

function parse<T>(schema: z.ZodType<T>, params: unknown): T {
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
  throw invalidParams(fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
}

/** The subscribe params, the delivery mode first: a mode not offered is Unsupported, whatever else is wrong. */
export function readSubscribeParams(params: unknown): SubscribeParams {
  const mode = (params as { delivery?: { mode?: unknown } } | null)?.delivery?.mode;
  if (mode !== undefined && mode !== 'webhook') throw unsupported('deliveryMode', mode);
  const read = parse(subscribeParams, params);
  if (!isStandardSecret(read.delivery.secret)) {
    throw invalidParams('delivery.secret must be whsec_ followed by the base64 of 24 to 64 random bytes', {
      fields: [{ field: 'delivery.secret', message: 'not a Standard Webhooks secret' }],
    });
  }
  return read;
}

export const readUnsubscribeParams = (params: unknown): UnsubscribeParams => parse(unsubscribeParams, params);
