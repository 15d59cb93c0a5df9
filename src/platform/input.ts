import { z } from 'zod';
import type { IdPrefix } from './ids.js';
import { inspectJson } from './json-inspect.js';
import { isStorableText, UNSTORABLE_TEXT } from './text.js';

// The building blocks of every input schema. Every string a client can send (a path id, a query value, a body
// string, and every string and key nested in free-form JSON) goes through `text()`, so the one rule about what
// Postgres can store is applied in one place. A bare `z.string()` anywhere else is a lint error.

/** A string Postgres can store as text or inside jsonb. Chain the field's own rules after it. */
export const text = () => z.string().refine(isStorableText, UNSTORABLE_TEXT);

/** Any id this service issues: a prefixed id (`agt_…`) or a UUID (webhook deliveries). */
export type IdKind = IdPrefix | 'uuid';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Prefixed ids are the prefix, an underscore and base62 characters (newId makes 20). The length is bounded but
// not pinned, so an id is judged by its shape: any string of that shape is safe to look up and is simply absent.
const prefixed = (prefix: IdPrefix) => new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`);

/** True when `value` has the shape of an id of that kind. */
export const hasIdShape = (kind: IdKind, value: string): boolean =>
  (kind === 'uuid' ? UUID : prefixed(kind)).test(value);

/** An id of one kind, by shape. */
export const idOf = (kind: IdKind) =>
  text().refine((v) => hasIdShape(kind, v), kind === 'uuid' ? 'must be a UUID' : `must be an id of the form ${kind}_…`);

/**
 * A free-form JSON object (an agent's config, a contact's metadata): every string and key storable, no
 * `__proto__` key, finite numbers, at most MAX_JSON_DEPTH levels, and at most `maxBytes` of UTF-8 JSON. The walk
 * is iterative and measures the size itself: JSON.stringify of an untrusted deep value can overflow the stack.
 */
export const jsonObject = (maxBytes: number) =>
  z
    .unknown()
    .superRefine((value, ctx) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
        return;
      }
      const found = inspectJson(value);
      if ('problem' in found) ctx.addIssue({ code: 'custom', message: found.problem, path: found.path });
      else if (found.bytes > maxBytes)
        ctx.addIssue({ code: 'custom', message: `must serialize to at most ${maxBytes} bytes of JSON` });
    })
    .transform((value) => value as Record<string, unknown>)
    // What the OpenAPI document says of it (the checks above are code, not JSON Schema).
    .meta({ type: 'object', additionalProperties: {} });

// RFC 3339 §5.6 date-time, in any of its forms: `T` or `t`, any number of fraction digits, `Z`, `z` or an offset.
// A leap second (:60) is refused: no clock this service reads keeps one.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The instant an RFC 3339 timestamp names, or null when it is not one (or names no real date or time). */
export function parseRfc3339(value: string): Date | null {
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = m.slice(1).map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const real =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(year, month) &&
    hour < 24 &&
    minute < 60 &&
    second < 60 &&
    offsetHour < 24 &&
    offsetMinute < 60;
  return real ? new Date(value.toUpperCase()) : null;
}

export const TIMESTAMP_EXAMPLE = '2026-12-01T00:00:00Z';

/**
 * A timestamp a client sends: any RFC 3339 form (`2026-12-01T00:00:00Z`, `2026-12-01T01:00:00.5+01:00`, …),
 * made the one form every answer writes, UTC with milliseconds (`2026-12-01T00:00:00.000Z`).
 */
export const timestampInput = () =>
  text()
    .transform((value, ctx) => {
      const at = parseRfc3339(value);
      if (at) return at.toISOString();
      ctx.addIssue({ code: 'custom', message: `must be an RFC 3339 timestamp, e.g. ${TIMESTAMP_EXAMPLE}` });
      return z.NEVER;
    })
    .meta({ type: 'string', format: 'date-time', description: `RFC 3339, e.g. ${TIMESTAMP_EXAMPLE}` });
