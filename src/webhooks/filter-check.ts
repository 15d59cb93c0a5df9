import type { EventType } from '../events/event-types.js';
import { payloadJsonSchema } from '../feed/event-schemas.js';
import type { FilterCondition, FilterIssue } from './filter-grammar.js';

// A filter's conditions against the payload schemas of the event types it filters (docs/webhook-filters.md): a
// path must be in the payload of at least one of them, and an operand must be of a type the path can hold there.
// The schemas are read as the JSON Schema that GET /v1/event-types publishes, so a filter is checked against what
// integrators read.

type JsonSchema = Record<string, unknown>;
/** The JSON types a path can hold, "any" when its schema leaves it open; an array adds its elements' types. */
type ValueTypes = Set<string>;

/** A schema with its $ref followed and its anyOf/oneOf/allOf flattened into the alternatives. */
function alternatives(schema: unknown, root: JsonSchema): JsonSchema[] {
  if (typeof schema !== 'object' || schema === null) return schema === true ? [{}] : [];
  const s = schema as JsonSchema;
  if (typeof s.$ref === 'string' && s.$ref.startsWith('#/$defs/')) {
    const defs = (root.$defs ?? {}) as Record<string, unknown>;
    return alternatives(defs[s.$ref.slice('#/$defs/'.length)], root);
  }
  const list = (s.anyOf ?? s.oneOf ?? s.allOf) as unknown[] | undefined;
  return list ? list.flatMap((x) => alternatives(x, root)) : [s];
}

const typesOf = (s: JsonSchema): string[] => {
  if (s.type !== undefined) return ([] as string[]).concat(s.type as string | string[]);
  if (Array.isArray(s.enum)) return s.enum.map(jsonType);
  if ('const' in s) return [jsonType(s.const)];
  return ['any'];
};

const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** The schemas one segment down: a property, an open object's any value, a list's element by its index. */
function step(schema: JsonSchema, segment: string, root: JsonSchema): JsonSchema[] {
  return alternatives(schema, root).flatMap((s) => {
    const types = typesOf(s);
    if (types.includes('any')) return [{}];
    const props = (s.properties ?? {}) as Record<string, unknown>;
    if (types.includes('object') && Object.hasOwn(props, segment)) return alternatives(props[segment], root);
    if (types.includes('object') && s.additionalProperties !== undefined && s.additionalProperties !== false)
      return alternatives(s.additionalProperties, root);
    if (types.includes('array') && /^\d+$/.test(segment)) return alternatives(s.items ?? {}, root);
    return [];
  });
}

/** What a dotted path can hold in one payload schema; empty when the path is not in it. */
function valueTypesAt(root: JsonSchema, path: string): ValueTypes {
  let at: JsonSchema[] = [root];
  for (const segment of path.split('.')) at = at.flatMap((s) => step(s, segment, root));
  const types: ValueTypes = new Set();
  for (const s of at.flatMap((x) => alternatives(x, root))) {
    for (const t of typesOf(s)) {
      types.add(t === 'integer' ? 'number' : t);
      if (t === 'array')
        for (const item of alternatives(s.items ?? {}, root))
          for (const it of typesOf(item)) types.add(it === 'integer' ? 'number' : it);
    }
  }
  return types;
}

/** The JSON types each operand of a condition must find at its path (null always may: it means absent). */
function neededTypes(c: FilterCondition): string[] {
  if (c.op === '$exists') return [];
  const operands = c.op === '$in' || c.op === '$nin' ? (c.operand as unknown[]) : [c.operand];
  return [...new Set(operands.filter((o) => o !== null).map(jsonType))];
}

const describe = (types: ValueTypes) => [...types].filter((t) => t !== 'null').join(' or ') || 'always null';

/** The issues of a filter's conditions against the payloads of `events` (each one located in the filter). */
export function checkFilterAgainstEvents(conditions: FilterCondition[], events: string[]): FilterIssue[] {
  const roots = events.map((e) => payloadJsonSchema(e as EventType));
  const issues: FilterIssue[] = [];
  for (const c of conditions) {
    const types: ValueTypes = new Set(roots.flatMap((root) => [...valueTypesAt(root, c.path)]));
    if (types.size === 0) {
      issues.push({ at: c.at, message: `"${c.path}" is in the payload of none of ${events.join(', ')}` });
      continue;
    }
    if (types.has('any')) continue;
    const wrong = neededTypes(c).filter((t) => !types.has(t));
    if (c.op === '$startsWith' && !types.has('string')) wrong.push('string');
    if (wrong.length > 0)
      issues.push({ at: c.at, message: `"${c.path}" holds ${describe(types)}, not ${[...new Set(wrong)].join(', ')}` });
  }
  return issues;
}
