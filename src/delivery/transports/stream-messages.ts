import { z } from 'zod';
import { text } from '../../platform/input.js';

// What crosses Redis between a worker sending to a stream destination and the web process holding that stream
// (docs/adr/0054-stream-destinations.md). Pub/sub only: nothing is stored, so the signed request exists in Redis
// only while it is being handed over. Never a secret: the request carries signatures, not the key.

/** The channel a stream's web process subscribes to for as long as its session is connected. */
export const streamChannel = (prefix: string, webhookId: string) => `${prefix}:stream:${webhookId}`;

/** A token is `<the worker's reply channel id>.<random>`, so a report finds its way back without naming a channel. */
const TOKEN = /^([0-9a-f-]{36})\.([0-9a-f-]{36})$/;
export const replyChannel = (prefix: string, processId: string) => `${prefix}:stream-replies:${processId}`;
export const replyChannelOfToken = (prefix: string, token: string): string | null => {
  const m = TOKEN.exec(token);
  return m ? replyChannel(prefix, m[1]!) : null;
};

/** One signed request, as the worker would have POSTed it, for the CLI to POST to its --forward-to. */
export interface StreamDelivery {
  token: string;
  deliveryId: string;
  event: string;
  attempt: number;
  headers: Record<string, string>;
  body: string;
}

/** What the CLI saw when it forwarded one delivery: an answer, or the local error that stopped it. */
export const streamReportInput = z
  .object({
    token: text().regex(TOKEN, 'the token of the delivery, as the stream sent it'),
    deliveryId: text().uuid(),
    status: z.number().int().min(100).max(599).nullable(),
    durationMs: z.number().int().min(0).max(3_600_000),
    error: z.enum(['timeout', 'connection_refused', 'dns_failed', 'tls']).nullable().default(null),
    message: text().max(500).nullable().default(null),
    body: text().max(4096).nullable().default(null),
  })
  .strict()
  .refine((r) => (r.status === null) !== (r.error === null), {
    message: 'either status (an answer) or error (none), not both',
  });
export type StreamReport = z.infer<typeof streamReportInput>;

/** A report on its way to the waiting worker: the stream it was made on, as the API checked it. */
export type RoutedStreamReport = StreamReport & { webhookId: string };
