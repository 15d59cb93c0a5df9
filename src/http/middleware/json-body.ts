import type { Middleware } from 'koa';
import { AppError } from '../../platform/errors.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../platform/json-inspect.js';
import type { AppState } from '../context.js';
import { drainLimit, readBody, unread } from '../read-body.js';

const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const tooLarge = (maxBytes: number) =>
  new AppError('payload_too_large', `Request bodies are limited to ${maxBytes} bytes`);

/**
 * Reads and parses JSON bodies: 413 past the limit (checked while streaming, not only from Content-Length),
 * 415 for a body that is not application/json, 400 for JSON nested deeper than MAX_JSON_DEPTH (checked on the
 * raw text, before parsing) and for malformed JSON. An absent body is allowed; a body on GET is read and ignored.
 */
export function jsonBody(maxBytes: number): Middleware<AppState> {
  return async (ctx, next) => {
    const declared = Number(ctx.get('content-length') || 0);
    if (declared === 0 && ctx.get('transfer-encoding') === '') return next();
    const wantsJson = BODY_METHODS.has(ctx.method);
    const refusal =
      declared > maxBytes
        ? tooLarge(maxBytes)
        : wantsJson && !ctx.is('application/json')
          ? new AppError('unsupported_media_type', 'Send request bodies as Content-Type: application/json')
          : null;

    const read = declared > drainLimit(maxBytes) ? unread : await readBody(ctx.req, refusal ? 0 : maxBytes);
    if (read.aborted) throw new AppError('invalid_json', 'The request body ended before it was complete');
    if (!read.complete) ctx.set('Connection', 'close');
    if (refusal) throw refusal;
    if (read.body === null) throw tooLarge(maxBytes);
    if (!wantsJson || read.body.length === 0) return next();

    if (exceedsJsonDepth(read.body)) {
      const message = `must not be nested deeper than ${MAX_JSON_DEPTH} levels`;
      throw new AppError('validation_error', `Invalid request: (body): ${message}`, {
        fields: [{ field: '(body)', message }],
      });
    }
    try {
      ctx.request.body = JSON.parse(read.body.toString('utf8'));
    } catch {
      throw new AppError('invalid_json', 'The request body is not valid JSON');
    }
    await next();
  };
}

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}
