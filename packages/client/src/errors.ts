import { readBody } from './body.js';
import { retryAfterSeconds } from './retry.js';

// What a failed call throws: the API's error body (docs/api.md#errors) as fields, or a request that got no answer.

/** The API's error types (the `type` of its error body); `connection_error` when no answer came back. */
export type SwitchboardErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'payment_required_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'api_error'
  | 'connection_error';

export interface SwitchboardErrorFields {
  status: number;
  type: SwitchboardErrorType;
  code: string;
  message: string;
  requestId: string | null;
  details?: Record<string, unknown>;
  retryAfterSeconds?: number | null;
  cause?: unknown;
}

/**
 * A call the API refused (`status` is its HTTP status, `code` its stable code such as `not_found`, `requestId`
 * the X-Request-Id to quote), or one that got no answer at all (`status` 0, `code` `connection_failed`, the
 * fetch error as `cause`).
 */
export class SwitchboardError extends Error {
  readonly status: number;
  readonly type: SwitchboardErrorType;
  readonly code: string;
  readonly requestId: string | null;
  /** validation_error: `fields`, each field and its problem; insufficient_scope: `requiredScope`. */
  readonly details: Record<string, unknown> | undefined;
  /** The answer's Retry-After, in seconds, when it had one (429, 503). */
  readonly retryAfterSeconds: number | null;

  constructor(fields: SwitchboardErrorFields) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = 'SwitchboardError';
    this.status = fields.status;
    this.type = fields.type;
    this.code = fields.code;
    this.requestId = fields.requestId;
    this.details = fields.details;
    this.retryAfterSeconds = fields.retryAfterSeconds ?? null;
  }
}

interface ErrorBody {
  error?: { type?: unknown; code?: unknown; message?: unknown; requestId?: unknown; details?: unknown };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The error a non-2xx answer stands for, from its body when it has the API's shape, else from its status. */
export function errorOfAnswer(status: number, headers: Headers, body: unknown, retryAfterSeconds: number | null) {
  const error = (body as ErrorBody | null)?.error;
  const details = error?.details;
  return new SwitchboardError({
    status,
    type:
      (str(error?.type) as SwitchboardErrorType | undefined) ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
    code: str(error?.code) ?? `http_${status}`,
    message: str(error?.message) ?? `The API answered ${status}`,
    requestId: str(error?.requestId) ?? headers.get('x-request-id'),
    details: details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined,
    retryAfterSeconds,
  });
}

/**
 * The error a non-2xx Response stands for, for a request made with fetch() itself (a stream, say): the same
 * SwitchboardError the client's methods throw. It reads the body.
 */
export async function errorFromResponse(res: Response): Promise<SwitchboardError> {
  return errorOfAnswer(
    res.status,
    res.headers,
    await readBody(res),
    retryAfterSeconds(res.headers.get('retry-after'), Date.now()),
  );
}

/** The error of a request that got no answer (refused connection, DNS, TLS, a reset). */
export function connectionError(cause: unknown): SwitchboardError {
  const reason = (cause as { cause?: { message?: unknown } })?.cause?.message ?? (cause as Error)?.message;
  return new SwitchboardError({
    status: 0,
    type: 'connection_error',
    code: 'connection_failed',
    message: `could not reach the API: ${String(reason ?? cause)}`,
    requestId: null,
    cause,
  });
}
