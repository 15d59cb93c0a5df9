import type { ErrorCode } from '../../platform/errors.js';
import type { RouteRecord } from '../router.js';
import { byStatus, errorCodesOf, errorExample } from './error-responses.js';
import type { SchemaSet } from './schema-set.js';
import { accessExtension, describeAccess, securityOf } from './security.js';

// One route of the router as an OpenAPI operation.

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** `/v1/agents/:id` → `/v1/agents/{id}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const operationIdOf = (route: RouteRecord) =>
  `${route.method}${openApiPath(route.path)
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()))
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
    .join('')}`;

function parametersOf(route: RouteRecord, schemas: SchemaSet): Json[] {
  const params: Json[] = route.params.map((p) => ({ name: p.name, in: 'path', required: true, description: `${p.what} id`, schema: p.schema }));
  if (route.doc.query) {
    const query = schemas.convert(route.doc.query, 'input');
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, Json>)) {
      params.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  for (const [name, h] of Object.entries(route.doc.headers ?? {})) {
    params.push({ name, in: 'header', required: h.required, description: h.description, schema: { type: 'string' } });
  }
  if (route.idempotent) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  return params;
}

function successResponses(route: RouteRecord, schemas: SchemaSet): Record<string, Json> {
  const { doc } = route;
  const statuses = [doc.status ?? (doc.response ? 200 : 204)].flat();
  const headers: Json = { 'X-Request-Id': ref('XRequestId') };
  if (route.access.kind !== 'public') Object.assign(headers, { Deprecation: ref('Deprecation'), Sunset: ref('Sunset') });
  const content = doc.response
    ? {
        content: {
          'application/json': {
            schema: schemas.convert(doc.response, 'output'),
            ...(doc.examples?.response !== undefined ? { example: doc.examples.response } : {}),
          },
        },
      }
    : {};
  const other = Object.entries(doc.otherResponses ?? {}).map(([status, r]) => [
    status,
    { description: r.description, headers: { 'X-Request-Id': ref('XRequestId') }, content: { 'application/json': { schema: schemas.convert(r.schema, 'output') } } },
  ]);
  return Object.fromEntries([...statuses.map((s) => [String(s), { description: s === 204 ? 'Done; no body' : 'Success', headers, ...content }]), ...other]);
}

/**
 * The error responses of an operation, as references to components.responses: one component per status and set
 * of codes (most operations share them), named after both so the name says what it holds.
 */
function errorResponses(route: RouteRecord, shared: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [status, codes] of byStatus(errorCodesOf(route))) {
    const name = `Error${status}_${codes.join('_')}`;
    shared[name] ??= errorResponse(status, codes);
    out[String(status)] = { $ref: `#/components/responses/${name}` };
  }
  return out;
}

function errorResponse(status: number, codes: ErrorCode[]): Json {
  const headers: Json = { 'X-Request-Id': ref('XRequestId') };
  if (status === 401) headers['WWW-Authenticate'] = ref('WWWAuthenticate');
  if (status === 429) Object.assign(headers, { 'Retry-After': ref('RetryAfter'), 'RateLimit-Limit': ref('RateLimitLimit'), 'RateLimit-Remaining': ref('RateLimitRemaining'), 'RateLimit-Reset': ref('RateLimitReset') });
  const schema = {
    allOf: [
      { $ref: '#/components/schemas/Error' },
      { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes } } } } },
    ],
  };
  return {
    description: codes.join(', '),
    headers,
    content: { 'application/json': { schema, examples: Object.fromEntries(codes.map((c) => [c, { value: errorExample(c) }])) } },
  };
}

/** A status that is both a success body and an error (GET /readyz answers 503 with its checks) lists both schemas. */
function mergeResponses(success: Record<string, Json>, errors: Record<string, Json>, shared: Record<string, Json>): Record<string, Json> {
  const out = { ...errors, ...success };
  for (const status of Object.keys(success).filter((s) => s in errors)) {
    const error = shared[String(errors[status]!.$ref).split('/').pop()!]!;
    const schemaOf = (r: Json) => (r.content as Record<string, Json>)['application/json']!.schema;
    const merged: Json = { ...success[status]!, description: `${String(success[status]!.description)}, or ${String(error.description)}` };
    merged.content = { 'application/json': { schema: { anyOf: [schemaOf(success[status]!), schemaOf(error)] } } };
    out[status] = merged;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** The operation of `route`; shared error responses are added to `responses` (components.responses). */
export function buildOperation(route: RouteRecord, schemas: SchemaSet, responses: Record<string, Json>): Json {
  const { doc, access } = route;
  const description = [doc.description, doc.security ? null : describeAccess(access), doc.spends ? 'Money-spending: charges credits; uncapped keys are rate-limited by plan.' : null]
    .filter(Boolean)
    .join('\n\n');
  const op: Json = {
    operationId: operationIdOf(route),
    summary: doc.summary,
    description,
    tags: [doc.tag],
    security: doc.security ?? securityOf(access),
    'x-access': accessExtension(access),
    parameters: parametersOf(route, schemas),
  };
  if (doc.body) {
    op.requestBody = {
      required: !doc.bodyOptional,
      content: {
        'application/json': {
          schema: schemas.convert(doc.body, 'input'),
          ...(doc.examples?.request !== undefined ? { example: doc.examples.request } : {}),
        },
      },
    };
  }
  op.responses = mergeResponses(successResponses(route, schemas), errorResponses(route, responses), responses);
  return op;
}
