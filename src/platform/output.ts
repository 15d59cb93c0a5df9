import { z } from 'zod';
import type { IdPrefix } from './ids.js';
import { timestampInput } from './input.js';

// The building blocks of response schemas: what the service writes, published in the OpenAPI document and
// checked against real answers by the tests. They parse a client's input only where a test event's payload is
// checked against its event's schema; the building blocks of input are input.ts.

/** Any string the service writes. */
export const outText = () => z.string();

// Read in any RFC 3339 form where a client's payload is checked against a response schema (a test event's), and
// always written, and published, as one form.
const TIMESTAMP = timestampInput().pipe(
  z.iso.datetime({ precision: 3 }).meta({ id: 'Timestamp', description: 'ISO 8601 UTC with milliseconds' }),
);

/** A timestamp as `iso()` writes it: ISO 8601 UTC with milliseconds (one component of the document). */
export const timestamp = () => TIMESTAMP;

/** An id this service issued, by its prefix (`agt_…`). */
export const idString = (prefix: IdPrefix) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[0-9A-Za-z]+$`))
    .describe(`${prefix}_…`);

/** A webhook delivery id (the envelope id). */
export const uuidString = () => z.uuid();

/** A free-form JSON object (an agent's config, a contact's metadata, an audit entry's details). */
export const jsonRecord = () => z.record(z.string(), z.unknown());

/** A map of names to texts (an attempt's headers). */
export const textRecord = () => z.record(z.string(), outText());

/** A list in the one list shape (docs/adr/0002-lists.md): `{data, hasMore, nextCursor}`. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable().describe('Pass as ?cursor= to get the next page; null on the last page'),
  });
