import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { describeCode, type ErrorCode } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';

// Bytes that are not HTTP never reach koa: Node's parser refuses them and, by default, answers a bare
// "400 Bad Request" with no body (or nothing at all on a connection that already carried a response). This
// answers in the error shape (docs/adr/0035-connection-errors.md) instead, with a request id, and then closes: after
// a parse error the
// parser cannot find where the next request starts.

function codeFor(err: { code?: string }): ErrorCode {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'headers_too_large';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return 'request_timeout';
    default:
      return 'malformed_request';
  }
}

const MESSAGES: Record<string, string> = {
  headers_too_large: 'The request headers are too large',
  request_timeout: 'The request was not received in time',
  malformed_request: 'The request is not valid HTTP/1.1',
};

/** The server's 'clientError' listener. */
export function answerClientError(err: Error & { code?: string }, socket: Duplex, logger: Logger): void {
  // A response already under way cannot be interrupted by another one without corrupting it.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const code = codeFor(err);
  const { status, type } = describeCode(code);
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  const body = JSON.stringify({ error: { type, code, message: MESSAGES[code], requestId } });
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
  // Closed once the answer is flushed (net.Socket#destroySoon), not at once: destroy() could drop it unsent.
  const closable = socket as Duplex & { destroySoon?: () => void };
  if (closable.destroySoon) closable.destroySoon();
  else socket.end();
  logger.info({ requestId, status, parseError: err.code }, 'refused a request that is not valid HTTP');
}
