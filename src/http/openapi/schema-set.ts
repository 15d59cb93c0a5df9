import { z } from 'zod';

type Json = Record<string, unknown>;

const DEFS = '#/$defs/';
const COMPONENTS = '#/components/schemas/';

/** Rewrites every `#/$defs/X` reference under `node` to `#/components/schemas/X`, in place. */
function retarget(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(retarget);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const obj = node as Json;
  if (typeof obj.$ref === 'string' && obj.$ref.startsWith(DEFS)) obj.$ref = COMPONENTS + obj.$ref.slice(DEFS.length);
  for (const value of Object.values(obj)) retarget(value);
}

/**
 * Converts zod schemas to the document's JSON Schema (OpenAPI 3.1 is JSON Schema 2020-12) with zod's own
 * `z.toJSONSchema`. A schema given an id with `.meta({ id })` becomes one entry of components.schemas, referenced
 * wherever it appears.
 */
export class SchemaSet {
  readonly components: Record<string, Json> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    for (const [id, def] of Object.entries(defs)) {
      retarget(def);
      const known = this.components[id];
      if (known && JSON.stringify(known) !== JSON.stringify(def))
        throw new Error(`Two different schemas share the OpenAPI id ${id}`);
      this.components[id] = def;
    }
    retarget(json);
    return json;
  }
}
