// A sample value valid against a JSON Schema, as GET /v1/event-types serves them (draft 2020-12 from zod), made
// from what the schema says of each value, so it looks like the real thing: a field's `examples`, then its
// `format` (an email, a URL, a timestamp, a UUID), an id's prefix from its pattern (`ct_…`), an enum's first value.
// A nullable value the schema says nothing more of is null (an `error`, a `lastError`), and so is a nullable
// timestamp (`deletedAt`, `sentAt`: what has not happened yet). The same schema always gives
// the same sample: ids are derived from their prefix, so a message's `id` and its envelope's `messageId` agree.
// The server checks the payload against the same schema again.

type Schema = Record<string, unknown>;

const SAMPLE_TIME = '2026-12-01T09:30:00.000Z';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** FNV-1a of `seed`, then a small generator from it: `length` base62 characters, the same for the same seed. */
function charsOf(seed: string, length: number, alphabet = BASE62): string {
  let h = 0x811c9dc5;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  let out = '';
  while (out.length < length) {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    h = (h ^ (h >>> 12)) >>> 0;
    out += alphabet[h % alphabet.length];
  }
  return out;
}

const uuidOf = (seed: string) => {
  const hex = charsOf(seed, 32, '0123456789abcdef');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

const FORMATS: Record<string, (seed: string) => string> = {
  'date-time': () => SAMPLE_TIME,
  email: () => 'ada@example.com',
  uri: () => 'https://example.com/hooks',
  url: () => 'https://example.com/hooks',
  uuid: uuidOf,
};

/** True when the schema says more of a value than its type: a value worth sampling instead of null. */
const describesValue = (s: Schema) =>
  ['examples', 'format', 'pattern', '$ref', 'enum', 'const', 'anyOf', 'oneOf'].some((k) => k in s) ||
  ['object', 'array', 'integer', 'number', 'boolean'].includes(s.type as string);

function sampleString(schema: Schema, seed: string): string {
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : null;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const fits = (s: string) => (!pattern || pattern.test(s)) && s.length >= min && s.length <= max;
  const prefix = typeof schema.pattern === 'string' ? /^\^([a-z]+_)\[/.exec(schema.pattern)?.[1] : undefined;
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  const candidates = [
    ...(format ? [format(seed)] : []),
    ...(prefix ? [`${prefix}${charsOf(prefix, 20)}`] : []),
    ...Object.values(FORMATS).map((f) => f(seed)),
    'sample',
  ];
  return candidates.find(fits) ?? 'x'.repeat(Math.max(min, 1));
}

/** 1, or the bound nearest to it. */
function sampleNumber(schema: Schema, integer: boolean): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + 1
        : -Infinity;
  const max = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
  const value = Math.min(Math.max(1, min), max);
  return integer ? Math.ceil(value) : value;
}

const definition = (root: Schema, ref: string): Schema =>
  (root.$defs as Record<string, Schema> | undefined)?.[ref.replace(/^#\/\$defs\//, '')] ?? {};

/** `seed` names where the value is (its property path), so each sample is the same wherever it is made. */
export function samplePayload(schema: Schema, root: Schema = schema, seed = '', depth = 0): unknown {
  if (depth > 20) return null;
  const next = (s: unknown, at = seed) => samplePayload((s ?? {}) as Schema, root, at, depth + 1);
  if (typeof schema.$ref === 'string') return next(definition(root, schema.$ref));
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const choices = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(choices)) {
    const resolve = (c: Schema): Schema => (typeof c.$ref === 'string' ? definition(root, c.$ref) : c);
    const nullable = choices.some((c) => c.type === 'null');
    const value = choices.find(
      (c) => c.type !== 'null' && describesValue(c) && !(nullable && resolve(c).format === 'date-time'),
    );
    return value ? next(value) : nullable ? null : next(choices[0]);
  }
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (types.includes('null') && !describesValue({ ...schema, type: types.find((t) => t !== 'null') })) return null;
  switch (types.find((t) => t !== 'null')) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, next(s, `${seed}.${k}`)]));
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: min }, (_, i) => next(schema.items, `${seed}[${i}]`));
    }
    case 'string':
      return sampleString(schema, seed);
    case 'integer':
      return sampleNumber(schema, true);
    case 'number':
      return sampleNumber(schema, false);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return {};
  }
}

/** The payload part of an event type's delivery schema (the envelope), with the envelope's $defs as root. */
export function samplePayloadOfEnvelope(envelope: Schema): unknown {
  const payload = ((envelope.properties ?? {}) as Record<string, Schema>).payload ?? {};
  return samplePayload(payload, envelope, 'payload');
}
