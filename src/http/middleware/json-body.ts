import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { AppError } from '../../platform/errors.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../platform/json-inspect.js';
import type { AppState } from '../context.js';

const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// A refused body is still read (and thrown away) up to this many times the limit, for at most DRAIN_MS, so the
// connection can carry the client's next request. Past either bound the answer says `Connection: close`: the
// unread rest would otherwise be taken for the next request, or leave the connection waiting for a body
// nobody reads.
const DRAIN_FACTOR = 8;
const DRAIN_MS = 5_000;

const tooLarge = (maxBytes: number) =>
  new AppError('payload_too_large', `Request bodies are limited to ${maxBytes} bytes`);

/**
 * Reads and parses JSON bodies: 413 past the limit (checked while streaming, not only from Content-Length),
 * 415 for a body that is not application/json, 400 for JSON nested deeper than MAX_JSON_DEPTH (checked on the
 * raw text, before parsing) and for malformed JSON. An absent body is allowed; a body on GET is read and ignored.
 */
export function jsonBody(maxBytes: number): Middleware<AppState> {
  const drainBytes = maxBytes * DRAIN_FACTOR;
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

    const read = declared > drainBytes ? unread : await readBody(ctx.req, refusal ? 0 : maxBytes, drainBytes);
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

interface BodyRead {
  /** The body, or null when it was longer than the bytes to keep. */
  body: Buffer | null;
  /** Whether the whole body was consumed, so the connection can carry another request. */
  complete: boolean;
  /** The client went away mid-body. */
  aborted: boolean;
}

const unread: BodyRead = { body: null, complete: false, aborted: false };

/**
 * Reads a request body, keeping at most `keepBytes`. Past that it goes on reading and discarding, up to
 * `drainBytes` in all and DRAIN_MS, then pauses the request. It never destroys the request stream (breaking
 * out of `for await` does), which would take the socket down before the refusal is written.
 */
function readBody(req: IncomingMessage, keepBytes: number, drainBytes: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (read: BodyRead) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onClose);
      resolve(read);
    };
    const stopDraining = () => {
      req.pause();
      finish(unread);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= keepBytes) chunks.push(chunk);
      else if (timer === undefined) {
        chunks.length = 0;
        timer = setTimeout(stopDraining, DRAIN_MS);
      }
      if (size > drainBytes) stopDraining();
    };
    const onEnd = () =>
      finish({ body: size <= keepBytes ? Buffer.concat(chunks) : null, complete: true, aborted: false });
    const onAbort = () => finish({ body: null, complete: false, aborted: true });
    const onClose = () => {
      if (!req.complete) onAbort();
    };
    req.on('data', onData).once('end', onEnd).once('error', onAbort).once('close', onClose);
  });
}

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}
