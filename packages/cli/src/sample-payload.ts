// A sample value valid against a JSON Schema, as GET /v1/event-types serves them (draft 2020-12 from zod): enough
// of the language for `switchboard trigger` (refs into $defs, anyOf, const, enum, objects, arrays, patterned and
// formatted strings, bounded numbers). The server checks the payload against the same schema again.

const now = (): Date => new Date();

type Schema = Record<string, unknown>;

const SAMPLE_UUID = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

/** The strings tried for a patterned string, in order; the first the pattern accepts is used. */
function stringCandidates(schema: Schema): string[] {
  if (typeof schema.pattern !== 'string' && schema.format === undefined) return ['sample'];
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : '';
  const prefix = /^\^([a-z]+_)\[/.exec(pattern)?.[1];
  return [
    ...(prefix ? [`${prefix}Sample0001`] : []),
    ...(schema.format === 'date-time' ? [now().toISOString()] : []),
    SAMPLE_UUID,
    now().toISOString(),
    'sample@example.com',
    '+15555550100',
    'https://example.com/',
    'sample',
  ];
}

function sampleString(schema: Schema): string {
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : null;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const fits = (s: string) => (!pattern || pattern.test(s)) && s.length >= min && s.length <= max;
  const found = stringCandidates(schema).find(fits);
  if (found !== undefined) return found;
  return 'x'.repeat(Math.max(min, 1));
}

function sampleNumber(schema: Schema, integer: boolean): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + 1
        : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const value = min ?? (max !== undefined ? Math.min(max, 1) : 1);
  return integer ? Math.ceil(value) : value;
}

export function samplePayload(schema: Schema, root: Schema = schema, depth = 0): unknown {
  if (depth > 20) return null;
  const next = (s: unknown) => samplePayload((s ?? {}) as Schema, root, depth + 1);
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace(/^#\/\$defs\//, '');
    return next((root.$defs as Record<string, Schema> | undefined)?.[name]);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const choices = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(choices)) return next(choices.find((c) => c.type !== 'null') ?? choices[0]);
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, next(s)]));
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: min }, () => next(schema.items));
    }
    case 'string':
      return sampleString(schema);
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
  return samplePayload(payload, envelope);
}
