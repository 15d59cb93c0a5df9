import { describeCode, type ErrorCode, type ErrorType } from '../../platform/errors.js';
import type { RouteRecord } from '../router.js';

// Which errors an operation can answer, and how they look. Most codes follow from what the route is: any
// credential can be missing, wrong, expired or outside its allowed IPs; a scope route can lack its scope; a path
// id can name nothing; a body can fail its schema. The route's own RouteDoc adds the rest.

const ERROR_TYPES: ErrorType[] = [
  'invalid_request_error',
  'authentication_error',
  'payment_required_error',
  'permission_error',
  'not_found_error',
  'conflict_error',
  'rate_limit_error',
  'api_error',
];

/** The error shape (docs/adr/0001-error-shape.md), once, as a component. */
export const errorSchema = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['type', 'code', 'message', 'requestId'],
      additionalProperties: false,
      properties: {
        type: { type: 'string', enum: ERROR_TYPES },
        code: {
          type: 'string',
          description: 'Stable, machine-readable; the codes each operation can answer are listed per status',
        },
        message: { type: 'string', description: 'For people; may change' },
        requestId: { type: 'string', description: 'The X-Request-Id of the request' },
        details: {
          type: 'object',
          description:
            'validation_error: `fields` lists each field and its problem; insufficient_scope: `requiredScope`',
        },
      },
    },
  },
};

const CREDENTIAL_ERRORS: ErrorCode[] = [
  'missing_credential',
  'invalid_credential',
  'key_expired',
  'key_deactivated',
  'session_expired',
  'ip_not_allowed',
  // A key's named rate limits are checked as it authenticates, on every route (src/keys/named-limits.ts).
  'rate_limited',
];

function accessErrors(route: RouteRecord): ErrorCode[] {
  const { access } = route;
  switch (access.kind) {
    case 'public':
      return [];
    case 'authenticated':
    case 'agentKey':
      return [...CREDENTIAL_ERRORS, 'agent_forbidden'];
    case 'admin':
      return [...CREDENTIAL_ERRORS, 'admin_session_required', 'agent_forbidden'];
    case 'scope':
      return [...CREDENTIAL_ERRORS, 'insufficient_scope', 'agent_forbidden'];
    case 'agentKeyMinting':
      return [...CREDENTIAL_ERRORS, 'insufficient_scope', 'admin_session_required', 'agent_forbidden'];
  }
}

/** Every error code `route` can answer, in the order of their statuses. */
export function errorCodesOf(route: RouteRecord): ErrorCode[] {
  const { doc } = route;
  const codes: ErrorCode[] = [...accessErrors(route)];
  if (route.params.length > 0) codes.push('not_found', 'validation_error');
  if (doc.query || doc.body) codes.push('validation_error');
  // The body parser reads every body (1 MiB at most, on GET too) and judges it on the other methods, whether or
  // not the route reads one (docs/api-keys.md#input-limits).
  codes.push('payload_too_large');
  if (route.method !== 'get') codes.push('invalid_json', 'unsupported_media_type', 'validation_error');
  if (route.idempotent) codes.push('validation_error', 'idempotency_key_in_use', 'idempotency_key_reused');
  if (doc.spends) codes.push('spend_cap_exceeded', 'insufficient_credits', 'rate_limited');
  codes.push(...(doc.errors ?? []), 'internal_error', 'unavailable');
  return [...new Set(codes)].sort((a, b) => describeCode(a).status - describeCode(b).status);
}

/** The codes grouped by their HTTP status. */
export function byStatus(codes: ErrorCode[]): Map<number, ErrorCode[]> {
  const groups = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = describeCode(code);
    groups.set(status, [...(groups.get(status) ?? []), code]);
  }
  return groups;
}

/** The shared response of each error status (components.responses), named for what it means to a client. */
const RESPONSE_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  402: 'PaymentRequired',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  408: 'RequestTimeout',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  429: 'RateLimited',
  431: 'HeadersTooLarge',
  500: 'InternalError',
  503: 'Unavailable',
};

export function errorResponseName(status: number): string {
  const name = RESPONSE_NAMES[status];
  if (!name) throw new Error(`No shared response name for the error status ${status}; add one to RESPONSE_NAMES`);
  return name;
}

/** An example body of one code, as the error renderer writes it. */
export const errorExample = (code: ErrorCode) => ({
  error: {
    type: describeCode(code).type,
    code,
    message: `An example ${code} message`,
    requestId: 'req_7mZq3X9aVb2Lk0Pd',
  },
});
