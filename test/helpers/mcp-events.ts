// MCP events for the tests: the SDK client's custom requests (events/list, events/poll), the stateless revision's
// raw POSTs, server-sent event streams read frame by frame, and the inbound message that makes message.received.
import { z } from 'zod';
import type { McpConnection } from './mcp.js';
import type { Client } from './http.js';

export const VERSION_2026 = '2026-07-28';
export const META_2026 = {
  'io.modelcontextprotocol/protocolVersion': VERSION_2026,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'events-test', version: '1.0.0' },
};

const anyResult = z.looseObject({});

export async function sdkRequest(conn: McpConnection, method: string, params: Record<string, unknown> = {}) {
  return (await conn.client.request({ method, params } as never, anyResult, { timeout: 60_000 })) as any;
}

/** An SDK request's JSON-RPC error (code, data), or null when it succeeded. */
export async function sdkError(conn: McpConnection, method: string, params: Record<string, unknown> = {}) {
  try {
    await sdkRequest(conn, method, params);
    return null;
  } catch (err) {
    const e = err as { code?: number; data?: any; message: string };
    return { code: e.code, data: e.data, message: e.message };
  }
}

/** A stateless (2026-07-28) POST with the headers the revision requires. */
export function statelessPost(
  api: Client,
  path: string,
  token: string,
  method: string,
  params: Record<string, unknown>,
) {
  const body = { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: META_2026 } };
  const headers = {
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION_2026,
    'mcp-method': method,
  };
  return api.post(path, { token, body, headers });
}

/** An inbox of `agentId` and a function that receives an inbound message on it (message.received). */
export async function makeInbox(api: Client, token: string, agentId: string, address: string) {
  const inbox = (await api.post('/v1/inboxes', { token, body: { agentId, channel: 'email', address } })).body;
  if (!inbox.id) throw new Error(`inbox not created: ${JSON.stringify(inbox)}`);
  const receive = async (from: string, text: string) => {
    const res = await api.post(`/v1/inbound/${inbox.id}`, {
      headers: { 'x-inbound-token': inbox.ingestToken },
      body: { from, text },
    });
    if (res.status >= 300) throw new Error(`inbound failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string; conversationId: string };
  };
  return { id: inbox.id as string, ingestToken: inbox.ingestToken as string, receive };
}

/** An SSE response read message by message (each `data:` frame parsed as JSON). */
export interface SseReader {
  messages: any[];
  /** Waits until a message satisfies `match`, answering it. */
  next(match: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  closed: Promise<void>;
  abort(): void;
  status: number;
  contentType: string | null;
}

export async function openSse(url: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    signal: controller.signal,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const messages: any[] = [];
  const waiters = new Set<() => void>();
  const isSse = res.headers.get('content-type')?.includes('text/event-stream') ?? false;
  const closed = (async () => {
    if (!res.body) return;
    if (!isSse) {
      const text = await res.text();
      if (text) messages.push(JSON.parse(text));
      return;
    }
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (data) messages.push(JSON.parse(data));
          for (const w of waiters) w();
        }
      }
    } catch {
      // aborted
    }
    for (const w of waiters) w();
  })();
  let done = false;
  void closed.then(() => (done = true));
  const reader: SseReader = {
    messages,
    status: res.status,
    contentType: res.headers.get('content-type'),
    closed,
    abort: () => controller.abort(),
    next: (match, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (found) {
            cleanup();
            resolve(found);
          } else if (done) {
            cleanup();
            reject(new Error(`stream closed; messages: ${JSON.stringify(messages).slice(0, 500)}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out; messages: ${JSON.stringify(messages).slice(0, 500)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
  };
  return reader;
}

export const isMethod = (method: string) => (m: any) => m.method === `notifications/events/${method}`;
export const isEventOf = (messageId: string) => (m: any) =>
  m.method === 'notifications/events/event' && m.params.data.id === messageId;
