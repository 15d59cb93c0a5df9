import type { ErrorCode } from '../../platform/errors.js';
import type { RouteRecord } from '../router.js';
import { byStatus, errorCodesOf, errorExample, errorResponseName } from './error-responses.js';
import type { SchemaSet } from './schema-set.js';
import { accessExtension, describeAccess, securityOf } from './security.js';

// One route of the router as an OpenAPI operation.

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** `/v1/agents/:agentId` → `/v1/agents/{agentId}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function parametersOf(route: RouteRecord, schemas: SchemaSet): Json[] {
  const params: Json[] = route.params.map((p) => ({
    name: p.name,
    in: 'path',
    required: true,
    description: `${p.what} id`,
    schema: p.schema,
  }));
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
  if (route.access.kind !== 'public')
    Object.assign(headers, { Deprecation: ref('Deprecation'), Sunset: ref('Sunset') });
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
    {
      description: r.description,
      headers: { 'X-Request-Id': ref('XRequestId') },
      content: { 'application/json': { schema: schemas.convert(r.schema, 'output') } },
    },
  ]);
  return Object.fromEntries([
    ...statuses.map((s) => [String(s), { description: s === 204 ? 'Done; no body' : 'Success', headers, ...content }]),
    ...other,
  ]);
}

/**
 * The error responses of an operation: references to the shared response of each status (components.responses,
 * named for what the status means: `Forbidden`, `RateLimited`), each with this operation's codes in its
 * description; the same codes, machine-readable, go in the operation's `x-error-codes`. `used` collects every
 * code per status for the shared responses' schemas.
 */
function errorResponses(
  route: RouteRecord,
  used: Map<number, Set<ErrorCode>>,
): { refs: Record<string, Json>; codes: Record<string, ErrorCode[]> } {
  const refs: Record<string, Json> = {};
  const codes: Record<string, ErrorCode[]> = {};
  for (const [status, list] of byStatus(errorCodesOf(route))) {
    const known = used.get(status) ?? new Set<ErrorCode>();
    used.set(status, new Set([...known, ...list]));
    const $ref = `#/components/responses/${errorResponseName(status)}`;
    refs[String(status)] = { $ref, description: describeCodes(list) };
    codes[String(status)] = list;
  }
  return { refs, codes };
}

const describeCodes = (codes: ErrorCode[]) => `One of: ${codes.map((c) => `\`${c}\``).join(', ')}`;

function errorResponse(status: number, codes: ErrorCode[], description: string): Json {
  const headers: Json = { 'X-Request-Id': ref('XRequestId') };
  if (status === 401) headers['WWW-Authenticate'] = ref('WWWAuthenticate');
  if (status === 429)
    Object.assign(headers, {
      'Retry-After': ref('RetryAfter'),
      'RateLimit-Limit': ref('RateLimitLimit'),
      'RateLimit-Remaining': ref('RateLimitRemaining'),
      'RateLimit-Reset': ref('RateLimitReset'),
    });
  return {
    description,
    headers,
    content: {
      'application/json': {
        schema: errorSchemaOf(codes),
        examples: Object.fromEntries(codes.map((c) => [c, { value: errorExample(c) }])),
      },
    },
  };
}

const errorSchemaOf = (codes: ErrorCode[]) => ({
  allOf: [
    { $ref: '#/components/schemas/Error' },
    {
      type: 'object',
      properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes } } } },
    },
  ],
});

/** components.responses: one shared response per error status, listing every code any operation answers with it. */
export function sharedErrorResponses(used: Map<number, Set<ErrorCode>>): Record<string, Json> {
  return Object.fromEntries(
    [...used].map(([status, codes]) => {
      const name = errorResponseName(status);
      return [name, errorResponse(status, [...codes].sort(), `${name}; each operation lists the codes it can answer`)];
    }),
  );
}

/** A status that is both a success body and an error (GET /readyz answers 503 with its checks) lists both schemas. */
function mergeResponses(
  success: Record<string, Json>,
  errors: Record<string, Json>,
  codes: Record<string, ErrorCode[]>,
): Record<string, Json> {
  const out = { ...errors, ...success };
  for (const status of Object.keys(success).filter((s) => s in errors)) {
    const schemaOf = (r: Json) => (r.content as Record<string, Json>)['application/json']!.schema;
    const description = `${String(success[status]!.description)}, or ${String(errors[status]!.description)}`;
    const merged: Json = { ...success[status]!, description };
    const anyOf = [schemaOf(success[status]!), errorSchemaOf(codes[status]!)];
    merged.content = { 'application/json': { schema: { anyOf } } };
    out[status] = merged;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** The operation of `route`; the error codes it answers are added to `used` (see sharedErrorResponses). */
export function buildOperation(route: RouteRecord, schemas: SchemaSet, used: Map<number, Set<ErrorCode>>): Json {
  const { doc, access } = route;
  const description = [
    doc.description,
    doc.security ? null : describeAccess(access),
    doc.spends ? 'Money-spending: charges credits; uncapped keys are rate-limited by plan.' : null,
  ]
    .filter(Boolean)
    .join('\n\n');
  const op: Json = {
    operationId: route.doc.operationId,
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
  const errors = errorResponses(route, used);
  op['x-error-codes'] = errors.codes;
  op.responses = mergeResponses(successResponses(route, schemas), errors.refs, errors.codes);
  return op;
}
