import { API_VERSION } from '../../events/event-types.js';
import type { ErrorCode } from '../../platform/errors.js';
import type { RouteRecord } from '../router.js';
import { errorSchema } from './error-responses.js';
import { buildOperation, openApiPath, sharedErrorResponses } from './operation.js';
import { TAGS } from './route-doc.js';
import { SchemaSet } from './schema-set.js';
import { securitySchemes } from './security.js';
import { buildWebhooks } from './webhooks.js';

// The OpenAPI 3.1 document, generated from the router: every route's access declaration and RouteDoc (whose
// schemas are the zod schemas the route validates with), converted by zod's own z.toJSONSchema. Nothing here
// reads configuration or state: the only outside value is the public URL the server answers at.

const DESCRIPTION = `The access-and-events layer of a platform that hosts software agents which exchange email and SMS with contacts.

- **Credentials**: \`Authorization: Bearer\` with a session (\`ca_sess_…\`), an account key (\`ca_acct_…\`) or a per-agent key (\`ca_agt_…\`). Each operation lists which it accepts and, for keys, the scope it needs (\`security\`, and \`x-access\`).
- **Errors** are always \`{"error": {"type", "code", "message", "requestId", "details"?}}\`; each operation lists the codes it can answer under their statuses.
- **Lists** are \`{"data": [...], "hasMore", "nextCursor"}\` with \`?limit=\` (1..100, default 20) and \`?cursor=\`, newest first.
- **Every response** carries \`X-Request-Id\`.
- **Webhooks**: the \`webhooks\` section describes each event's delivery (envelope \`apiVersion\` ${API_VERSION}) and its signature headers.`;

const headers = {
  XRequestId: {
    description: 'The request id (a sane incoming X-Request-Id is echoed); also in every error body',
    schema: { type: 'string' },
  },
  WWWAuthenticate: {
    description: 'Bearer error="invalid_token" (error="insufficient_scope" on scope 403s)',
    schema: { type: 'string' },
  },
  RetryAfter: { description: 'Seconds until the rate window resets', schema: { type: 'integer' } },
  RateLimitLimit: {
    description: 'Money-spending requests allowed per window for the plan (free 60, pro 600)',
    schema: { type: 'integer' },
  },
  RateLimitRemaining: { description: 'Requests left in this window', schema: { type: 'integer' } },
  RateLimitReset: { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  Deprecation: { description: "`true` when the request used a rotated key's old secret", schema: { type: 'string' } },
  Sunset: { description: 'When that old secret stops working (HTTP date)', schema: { type: 'string' } },
};

const parameters = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Retrying with the same key replays the first answer instead of doing the work twice (24 h). 1 to 255 printable ASCII characters.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]*$' },
  },
};

export function buildOpenApiDocument(routes: readonly RouteRecord[], publicUrl: string): Record<string, unknown> {
  const schemas = new SchemaSet();
  const errorCodes = new Map<number, Set<ErrorCode>>();
  const paths: Record<string, Record<string, unknown>> = {};
  checkOperationIds(routes);
  for (const route of routes) {
    const path = openApiPath(route.path);
    (paths[path] ??= {})[route.method] = buildOperation(route, schemas, errorCodes);
  }
  const webhooks = buildWebhooks(schemas);
  return {
    openapi: '3.1.1',
    info: { title: 'Switchboard API', version: API_VERSION, description: DESCRIPTION },
    servers: [{ url: publicUrl }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks,
    components: {
      schemas: { Error: errorSchema, ...sortKeys(schemas.components) },
      responses: sortKeys(sharedErrorResponses(errorCodes)),
      securitySchemes,
      headers,
      parameters,
    },
  };
}

/**
 * Generated clients name their methods after operationIds, so each route declares one (a verb and its object, in
 * camelCase) and no two routes share one: the generator refuses a route without one, or a name used twice.
 */
export function checkOperationIds(routes: readonly RouteRecord[]): void {
  const seen = new Map<string, string>();
  for (const route of routes) {
    const where = `${route.method.toUpperCase()} ${route.path}`;
    const { operationId } = route.doc as { operationId?: unknown };
    if (typeof operationId !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(operationId)) {
      throw new Error(`${where}: its RouteDoc needs an operationId in camelCase (e.g. createWebhook)`);
    }
    const other = seen.get(operationId);
    if (other) throw new Error(`${where}: the operationId ${operationId} is already ${other}'s`);
    seen.set(operationId, where);
  }
}

const sortKeys = <T>(o: Record<string, T>) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
