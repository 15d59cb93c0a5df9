import type { Middleware } from 'koa';
import { AppError } from '../../platform/errors.js';
import type { AppState } from '../context.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Reads and parses JSON bodies: 413 past the limit (checked while streaming, not only from Content-Length),
 * 415 for a body that is not application/json, 400 for malformed JSON. An absent body is allowed.
 */
export function jsonBody(maxBytes: number): Middleware<AppState> {
  return async (ctx, next) => {
    if (!BODY_METHODS.has(ctx.method)) return next();
    const declared = Number(ctx.get('content-length') || 0);
    const chunked = ctx.get('transfer-encoding') !== '';
    if (declared === 0 && !chunked) return next();
    if (declared > maxBytes) throw new AppError('payload_too_large', `Request bodies are limited to ${maxBytes} bytes`);
    if (!ctx.is('application/json')) {
      throw new AppError('unsupported_media_type', 'Send request bodies as Content-Type: application/json');
    }
    const raw = await readLimited(ctx.req, maxBytes);
    if (raw.length === 0) return next();
    try {
      ctx.request.body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new AppError('invalid_json', 'The request body is not valid JSON');
    }
    await next();
  };
}

async function readLimited(stream: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > maxBytes) throw new AppError('payload_too_large', `Request bodies are limited to ${maxBytes} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}
