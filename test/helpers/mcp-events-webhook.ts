// MCP Events webhook mode in tests: a receiver that answers the verification handshake, client secrets, and
// events/subscribe and events/unsubscribe through the SDK Client's own request().
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { verify } from '@switchboard/webhooks';
import type { McpConnection } from './mcp.js';
import { startReceiver, type Received, type Receiver } from './receiver.js';

export const newClientSecret = (bytes = 32): string => `whsec_${randomBytes(bytes).toString('base64')}`;

const subscribed = z
  .object({
    id: z.string(),
    refreshBefore: z.string().nullable(),
    cursor: z.string().nullable(),
    truncated: z.boolean(),
    deliveryStatus: z
      .object({ active: z.boolean(), lastDeliveryAt: z.string().nullable(), lastError: z.string().nullable() })
      .passthrough()
      .optional(),
  })
  .passthrough();
export type Subscribed = z.infer<typeof subscribed>;

export function subscribeWebhook(conn: McpConnection, params: Record<string, unknown>): Promise<Subscribed> {
  return conn.client.request({ method: 'events/subscribe', params } as never, subscribed);
}

export function unsubscribeWebhook(conn: McpConnection, params: Record<string, unknown>) {
  return conn.client.request({ method: 'events/unsubscribe', params } as never, z.object({}).passthrough());
}

/** The JSON-RPC error a request was answered with (code and data), or null when it succeeded. */
export async function rpcErrorOf(p: Promise<unknown>): Promise<{ code: number; data: any } | null> {
  try {
    await p;
    return null;
  } catch (err) {
    const e = err as { code?: number; data?: unknown };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, data: e.data };
  }
}

/**
 * A receiver that echoes every verification challenge (unless `echo` is false) and answers `eventStatus` to the
 * rest (200 by default).
 */
export function startMcpReceiver(opts: { echo?: boolean; eventStatus?: number } = {}): Promise<Receiver> {
  return startReceiver((r) => {
    if (r.body?.type === 'verification') {
      return opts.echo === false
        ? { status: 200, body: '{"challenge":"wrong"}' }
        : {
            status: 200,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ challenge: r.body.challenge }),
          };
    }
    return { status: opts.eventStatus ?? 200 };
  });
}

/** What arrived at `path` (the receiver's requests there), event occurrences and control bodies alike. */
export const arrivedAt = (receiver: Receiver, path: string): Received[] =>
  receiver.received.filter((r) => r.path === path);

/** Verifies a request as an MCP receiver does (Standard Webhooks v1 with the client's secret) and parses it. */
export const verifyMcp = (r: Received, secret: string) =>
  verify(r.raw, r.headers as Record<string, string>, secret) as Promise<Record<string, any>>;
