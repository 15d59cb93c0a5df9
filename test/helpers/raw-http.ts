import { connect, type Socket } from 'node:net';

// HTTP/1.1 over a raw socket, for what fetch refuses to send: invalid bytes in paths and headers, chunked
// bodies of any size, several requests on one connection, and a view of whether the server closed it.

export interface RawResponse {
  status: number;
  /** Lowercased names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  /** The parsed JSON body, or undefined. */
  json: any;
}

export interface RawRequest {
  method: string;
  /** Sent as-is on the request line: percent-encode what must be encoded, or do not, on purpose. */
  target: string;
  headers?: Array<[string, string]>;
  body?: Buffer | string;
  /** Sends the body with Transfer-Encoding: chunked, in chunks of this size. */
  chunkSize?: number;
}

/** The bytes of one request. Host and Content-Length (or Transfer-Encoding) are added unless given. */
export function encodeRequest(req: RawRequest): Buffer {
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
  const headers = [...(req.headers ?? [])];
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  if (!has('host')) headers.unshift(['Host', 'localhost']);
  if (body && req.chunkSize) headers.push(['Transfer-Encoding', 'chunked']);
  else if (body && !has('content-length')) headers.push(['Content-Length', String(body.length)]);
  const head = Buffer.from(
    `${req.method} ${req.target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`,
    'latin1',
  );
  if (!body) return head;
  if (!req.chunkSize) return Buffer.concat([head, body]);
  const parts: Buffer[] = [head];
  for (let i = 0; i < body.length; i += req.chunkSize) {
    const chunk = body.subarray(i, i + req.chunkSize);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** One client connection; responses are read in order. */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiter: (() => void) | null = null;
  ended = false;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, d]);
      this.wake();
    });
    const end = () => {
      this.ended = true;
      this.wake();
    };
    socket.on('end', end).on('close', end).on('error', end);
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes bytes; resolves once they are handed to the kernel (false if the server closed first). */
  write(bytes: Buffer): Promise<boolean> {
    if (this.socket.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => this.socket.write(bytes, (err) => resolve(!err)));
  }

  send(req: RawRequest): Promise<boolean> {
    return this.write(encodeRequest(req));
  }

  /** Reads the next response; rejects on timeout or when the server closes before a whole response. */
  async read(timeoutMs = 30_000, opts: { head?: boolean } = {}): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = parseResponse(this.buffer, this.ended, opts.head ?? false);
      if (parsed) {
        this.buffer = this.buffer.subarray(parsed.used);
        if (parsed.response.status >= 100 && parsed.response.status < 200) continue; // 100 Continue
        return parsed.response;
      }
      if (this.ended) throw new Error('connection closed before a whole response');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no response within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Resolves true once the server has closed the connection, false if it is still open after `ms`. */
  async closedWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return this.ended;
  }

  close(): void {
    this.socket.destroy();
  }

  private wake() {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }
}

function parseResponse(buf: Buffer, ended: boolean, head: boolean): { response: RawResponse; used: number } | null {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const [statusLine, ...lines] = buf.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let offset = headEnd + 4;
  let body: Buffer;
  if (head || status === 204 || status === 304 || (status >= 100 && status < 200)) body = Buffer.alloc(0);
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', offset);
      if (lineEnd < 0) return null;
      const size = parseInt(buf.subarray(offset, lineEnd).toString('latin1'), 16);
      if (buf.length < lineEnd + 2 + size + 2) return null;
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
      offset = lineEnd + 2 + size + 2;
      if (size === 0) break;
    }
    body = Buffer.concat(parts);
  } else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (buf.length < offset + length) return null;
    body = buf.subarray(offset, offset + length);
    offset += length;
  } else {
    if (!ended) return null;
    body = buf.subarray(offset);
    offset = buf.length;
  }
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { response: { status, headers, body, text, json }, used: offset };
}
