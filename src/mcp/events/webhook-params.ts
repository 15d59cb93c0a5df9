import { z } from 'zod';
import { text } from '../../platform/input.js';
import { invalidParams, unsupported } from './errors.js';

// The params of events/subscribe and events/unsubscribe (docs/mcp-events.md#webhook-mode), read with zod. Fields the
// sketch defines and this server does not act on (`maxAgeMs`, `_meta`) are accepted and passed over.

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
