import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

// A real HTTP server on 127.0.0.1 in front of the API under test: it passes every request on and back, records
// what it saw, and can be told to answer the next requests itself, as an overloaded service would (429, 503 with
// Retry-After). It can also serve a few files, so a page it serves calls the API on its own origin.

export interface Seen {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** performance.now() when it arrived. */
  at: number;
  answered: number;
}

export interface Front {
  url: string;
  seen: Seen[];
  /** The next `count` API requests are answered `status` with these headers and the API's error shape. */
  refuseNext(count: number, status: 429 | 503, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFront(apiUrl: string, files = new Map<string, { type: string; body: string }>()) {
  const seen: Seen[] = [];
  let refusals: Array<{ status: number; headers: Record<string, string> }> = [];
  const server = createServer(async (req, res) => {
    const file = files.get(req.url ?? '');
    if (file) return res.writeHead(200, { 'content-type': file.type }).end(file.body);
    if (req.url === '/favicon.ico') return res.writeHead(204).end();
    const body = await readAll(req);
    const entry: Seen = {
      method: req.method ?? '',
      path: req.url ?? '',
      idempotencyKey: (req.headers['idempotency-key'] as string | undefined) ?? null,
      at: performance.now(),
      answered: 0,
    };
    seen.push(entry);
    const refusal = refusals.shift();
    if (refusal) {
      entry.answered = refusal.status;
      const code = refusal.status === 429 ? 'rate_limited' : 'unavailable';
      const type = refusal.status === 429 ? 'rate_limit_error' : 'api_error';
      const error = { type, code, message: `refused by the test's front (${refusal.status})`, requestId: 'req_front' };
      return res
        .writeHead(refusal.status, { 'content-type': 'application/json', ...refusal.headers })
        .end(JSON.stringify({ error }));
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)) as Array<[string, string]>,
    );
    const answer = await fetch(apiUrl + req.url, {
      method: req.method,
      headers,
      body: body.length ? body : undefined,
    });
    entry.answered = answer.status;
    const out = Buffer.from(await answer.arrayBuffer());
    const back = Object.fromEntries(
      [...answer.headers].filter(([name]) => !HOP_BY_HOP.has(name) && name !== 'content-encoding'),
    );
    res.writeHead(answer.status, back).end(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const front: Front = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    refuseNext(count, status, headers = {}) {
      refusals = Array.from({ length: count }, () => ({ status, headers }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return front;
}
