// One error class for the whole service. A code maps to its status and type through one exhaustive switch.

export type ErrorCode =
  | 'validation_error'
  | 'invalid_scope'
  | 'invalid_webhook_url'
  | 'invalid_json'
  | 'malformed_request'
  | 'missing_credential'
  | 'invalid_credential'
  | 'key_expired'
  | 'key_deactivated'
  | 'session_expired'
  | 'spend_cap_exceeded'
  | 'insufficient_credits'
  | 'ip_not_allowed'
  | 'origin_not_allowed'
  | 'insufficient_scope'
  | 'agent_forbidden'
  | 'admin_session_required'
  | 'signup_disabled'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'agent_paused'
  | 'inbox_deleted'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'request_timeout'
  | 'headers_too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'internal_error';

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'payment_required_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'api_error';

export function describeCode(code: ErrorCode): { status: number; type: ErrorType } {
  switch (code) {
    case 'validation_error':
    case 'invalid_scope':
    case 'invalid_webhook_url':
    case 'invalid_json':
    case 'malformed_request':
      return { status: 400, type: 'invalid_request_error' };
    case 'missing_credential':
    case 'invalid_credential':
    case 'key_expired':
    case 'key_deactivated':
    case 'session_expired':
      return { status: 401, type: 'authentication_error' };
    case 'spend_cap_exceeded':
    case 'insufficient_credits':
      return { status: 402, type: 'payment_required_error' };
    case 'ip_not_allowed':
    case 'origin_not_allowed':
    case 'insufficient_scope':
    case 'agent_forbidden':
    case 'admin_session_required':
    case 'signup_disabled':
      return { status: 403, type: 'permission_error' };
    case 'not_found':
      return { status: 404, type: 'not_found_error' };
    case 'method_not_allowed':
      return { status: 405, type: 'invalid_request_error' };
    case 'conflict':
    case 'agent_paused':
    case 'inbox_deleted':
    case 'idempotency_key_in_use':
      return { status: 409, type: 'conflict_error' };
    case 'idempotency_key_reused':
      return { status: 422, type: 'invalid_request_error' };
    case 'payload_too_large':
      return { status: 413, type: 'invalid_request_error' };
    case 'unsupported_media_type':
      return { status: 415, type: 'invalid_request_error' };
    case 'request_timeout':
      return { status: 408, type: 'invalid_request_error' };
    case 'headers_too_large':
      return { status: 431, type: 'invalid_request_error' };
    case 'rate_limited':
      return { status: 429, type: 'rate_limit_error' };
    case 'unavailable':
      return { status: 503, type: 'api_error' };
    case 'internal_error':
      return { status: 500, type: 'api_error' };
  }
}

export class AppError extends Error {
  readonly status: number;
  readonly type: ErrorType;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra response headers, e.g. Retry-After on a 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    const { status, type } = describeCode(code);
    this.status = status;
    this.type = type;
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);

/** A 400 validation_error naming one field, in the shape zod's failures have: what a rule beyond a schema throws. */
export const fieldError = (field: string, message: string): AppError =>
  new AppError('validation_error', `Invalid request: ${field}: ${message}`, { fields: [{ field, message }] });

/** 429 rate_limited with Retry-After and the RateLimit-* headers, for every limiter of the service. */
export function rateLimitedError(
  message: string,
  limit: number,
  resetSeconds: number,
  details: Record<string, unknown> = {},
): AppError {
  return new AppError(
    'rate_limited',
    message,
    { ...details, limit, resetSeconds },
    {
      'Retry-After': String(resetSeconds),
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': String(resetSeconds),
    },
  );
}
