import type { IncomingMessage, ServerResponse } from 'node:http';
import { verify, WebhookVerificationError, type HeadersLike } from '@switchboard/webhooks';
import type { CursorStore } from './cursor-store.ts';
import { eventsErrorOf, type EventsError } from './errors.ts';
import type { OnEvents } from './handler.ts';
import { controlBody, eventOccurrence } from './wire.ts';

// The callback endpoint of webhook subscriptions: verifies each POST's Standard Webhooks signature with the
// subscription's secret before reading it, answers the verification handshake, and hands events (and gaps) to
// onEvents, persisting the body's cursor after it. subscribeWebhook registers its secrets and routes here.

export interface ReceiverOptions {
  onEvents: OnEvents;
  /** Where each subscription's cursor is saved (under the key its subscribeWebhook uses). */
  store?: CursorStore;
  /** How old a signature's timestamp may be. Default 300 s. */
  toleranceSeconds?: number;
  /** A subscription the server ended (a terminated envelope); its subscribeWebhook loop resolves too. */
  onTerminated?: (error: EventsError, subscriptionId: string) => void;
}

export interface ReceiverResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Route {
  key: string;
  secret: string;
  onTerminated(error: EventsError): void;
}

export interface WebhookReceiver {
  /** Answers one POST: its raw body bytes, exactly as received, and its headers. */
  handle(request: { body: string | Uint8Array; headers: HeadersLike }): Promise<ReceiverResponse>;
  /** The same, as a node:http request listener. */
  listener(req: IncomingMessage, res: ServerResponse): void;
  /** @internal a secret about to be subscribed with: it may sign the verification handshake before an id is known. */
  expect(secret: string): () => void;
  /** @internal routes a subscription id to its secret and cursor key. */
  route(id: string, route: Route): () => void;
  /** @internal a gap reported by a subscribe response. */
  gap(key: string, cursor: string | null): Promise<void>;
}

const json = (status: number, value: unknown): ReceiverResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});
const header = (headers: HeadersLike, name: string) => {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : (value ?? undefined);
};

export function createWebhookReceiver(options: ReceiverOptions): WebhookReceiver {
  const pending = new Set<string>();
  const routes = new Map<string, Route>();
  const recent = new Set<string>();
  const remember = (id: string) => {
    recent.add(id);
    if (recent.size > 4096) recent.delete(recent.values().next().value!);
  };

  async function handle({ body, headers }: { body: string | Uint8Array; headers: HeadersLike }) {
    const subscriptionId = header(headers, 'x-mcp-subscription-id');
    if (!subscriptionId) return json(400, { error: 'X-MCP-Subscription-Id is missing' });
    const route = routes.get(subscriptionId);
    const secrets = route ? [route.secret] : [...pending];
    if (secrets.length === 0) return json(404, { error: 'no such subscription' });
    let envelope: Record<string, unknown>;
    try {
      const verified = await verify(body, headers, secrets, { toleranceSeconds: options.toleranceSeconds });
      envelope = verified as unknown as Record<string, unknown>;
    } catch (err) {
      if (err instanceof WebhookVerificationError) return json(401, { error: err.reason });
      throw err;
    }

    if ('type' in envelope) {
      const control = controlBody.safeParse(envelope);
      // A control type of a later revision: acknowledged, not acted on.
      if (!control.success) return typeof envelope.type === 'string' ? json(200, {}) : json(400, { error: 'bad body' });
      if (control.data.type === 'verification') return json(200, { challenge: control.data.challenge });
      // Not routed yet (the subscribe answer is on its way): retryable, the server sends it again.
      if (!route) return json(503, { error: 'subscription not ready' });
      if (control.data.type === 'gap') {
        await deliverGap(route.key, control.data.cursor);
        return json(200, {});
      }
      const error = eventsErrorOf(control.data.error);
      routes.delete(subscriptionId);
      route.onTerminated(error);
      options.onTerminated?.(error, subscriptionId);
      return json(200, {});
    }

    const event = eventOccurrence.safeParse(envelope);
    if (!event.success) return json(400, { error: 'the body is not an EventOccurrence' });
    if (!route) return json(503, { error: 'subscription not ready' });
    const deliveryId = header(headers, 'webhook-id') ?? event.data.eventId;
    if (recent.has(deliveryId)) return json(200, { duplicate: true });
    const cursor = event.data.cursor ?? null;
    try {
      await options.onEvents([event.data], { cursor, truncated: false });
      await options.store?.save(route.key, cursor);
    } catch {
      // Not acknowledged: the server retries it.
      return json(503, { error: 'not processed' });
    }
    remember(deliveryId);
    return json(200, {});
  }

  async function deliverGap(key: string, cursor: string | null) {
    await options.onEvents([], { cursor, truncated: true });
    await options.store?.save(key, cursor);
  }

  return {
    handle,
    listener(req, res) {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        handle({ body: new Uint8Array(Buffer.concat(chunks)), headers: req.headers }).then(
          (answer) => res.writeHead(answer.status, answer.headers).end(answer.body),
          () => res.writeHead(500).end(),
        );
      });
    },
    expect(secret) {
      pending.add(secret);
      return () => pending.delete(secret);
    },
    route(id, route) {
      routes.set(id, route);
      return () => {
        if (routes.get(id) === route) routes.delete(id);
      };
    },
    gap: deliverGap,
  };
}
