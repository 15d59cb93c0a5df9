import { createHash, createHmac, randomBytes } from 'node:crypto';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { LoggedEvent } from './events-server.js';

// The webhook half of the events fixture: events/subscribe and events/unsubscribe per the Events extension
// (subscription key, verification handshake, TTL grant), and signed Standard Webhooks POSTs of each event to every
// live subscription. Callback URLs on 127.0.0.1 over http are admitted, as a server's configured allowlist would.

export interface FixtureSubscription {
  id: string;
  url: string;
  secret: string;
  name: string;
  key: string;
  expiresAt: number;
  position: number;
}

export interface SubscribeCall {
  id: string;
  /** The subscription had expired (or never existed) when this call came. */
  lapsed: boolean;
  grantedMs: number;
  refreshBefore: string;
}

export interface WebhookSubscriptions {
  live: Map<string, FixtureSubscription>;
  subscribes: SubscribeCall[];
  /** Every POST made, with the receiver's status. */
  posts: Array<{ id: string; kind: string; status: number }>;
  subscribe(params: unknown, authenticated: boolean): Promise<Record<string, unknown>>;
  unsubscribe(params: unknown, authenticated: boolean): Record<string, unknown>;
  deliver(event: LoggedEvent): void;
  /** POSTs a gap envelope with the current position to every live subscription. */
  gap(): Promise<void>;
  /** POSTs a terminated envelope to every live subscription and forgets them. */
  terminate(error: { code: number; message: string }): Promise<void>;
  close(): Promise<void>;
}

interface Deps {
  log: LoggedEvent[];
  cursorOf(seq: number): string;
  positionOf(cursor: string | null | undefined): { position: number; truncated: boolean };
  knownName(name: string): void;
  grantMs?: number;
}

const subscribeParams = z.looseObject({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  delivery: z.looseObject({ mode: z.literal('webhook').optional(), url: z.string(), secret: z.string().optional() }),
  cursor: z.string().nullish(),
  ttlMs: z.number().nullish(),
});

const invalid = (field: string) => new McpError(-32602, 'InvalidParams', { field });
const forbidden = () =>
  new McpError(-32012, 'Forbidden', { reason: 'webhook delivery needs an authenticated principal' });

function checkSecret(secret: string | undefined): string {
  if (!secret?.startsWith('whsec_')) throw invalid('delivery.secret');
  const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64');
  if (bytes.length < 24 || bytes.length > 64) throw invalid('delivery.secret');
  return secret;
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export function createWebhookSubscriptions(deps: Deps): WebhookSubscriptions {
  const live = new Map<string, FixtureSubscription>();
  const verified = new Set<string>();
  const subscribes: SubscribeCall[] = [];
  const posts: WebhookSubscriptions['posts'] = [];
  let chain: Promise<unknown> = Promise.resolve();

  async function post(sub: Pick<FixtureSubscription, 'id' | 'url' | 'secret'>, id: string, body: object) {
    const raw = JSON.stringify(body);
    const timestamp = Math.floor(Date.now() / 1000);
    const res = await fetch(sub.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': sign(sub.secret, id, timestamp, raw),
        'x-mcp-subscription-id': sub.id,
      },
      body: raw,
      redirect: 'manual',
    });
    const text = await res.text();
    posts.push({ id, kind: 'type' in body ? String(body.type) : 'event', status: res.status });
    return { status: res.status, text };
  }

  async function verify(sub: Pick<FixtureSubscription, 'id' | 'url' | 'secret'>) {
    const challenge = randomBytes(16).toString('hex');
    const res = await post(sub, `msg_verification_${randomBytes(6).toString('hex')}`, {
      type: 'verification',
      challenge,
    });
    let echoed: unknown;
    try {
      echoed = (JSON.parse(res.text) as { challenge?: unknown }).challenge;
    } catch {
      echoed = undefined;
    }
    if (res.status >= 300 || echoed !== challenge) {
      throw new McpError(-32015, 'CallbackEndpointError', { reason: 'challenge_failed' });
    }
  }

  const keyOf = (url: string, name: string, args: unknown) => JSON.stringify([url, name, args ?? {}]);
  const idOf = (key: string) => `sub_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

  return {
    live,
    subscribes,
    posts,
    async subscribe(params, authenticated) {
      if (!authenticated) throw forbidden();
      const p = subscribeParams.parse(params);
      deps.knownName(p.name);
      if (!/^(https:\/\/|http:\/\/127\.0\.0\.1[:/])/.test(p.delivery.url)) throw invalid('delivery.url');
      const secret = checkSecret(p.delivery.secret);
      const key = keyOf(p.delivery.url, p.name, p.arguments);
      const id = idOf(key);
      const existing = live.get(id);
      const lapsed = !existing || existing.expiresAt < Date.now();
      if (!verified.has(p.delivery.url)) {
        await verify({ id, url: p.delivery.url, secret });
        verified.add(p.delivery.url);
      }
      const { position, truncated } = deps.positionOf(p.cursor);
      const grantedMs = Math.min(p.ttlMs ?? 3_600_000, deps.grantMs ?? 3_600_000);
      const expiresAt = Date.now() + grantedMs;
      const sub = {
        id,
        url: p.delivery.url,
        secret,
        name: p.name,
        key,
        expiresAt,
        position: existing && !lapsed ? existing.position : position,
      };
      live.set(id, sub);
      const refreshBefore = new Date(expiresAt).toISOString();
      subscribes.push({ id, lapsed, grantedMs, refreshBefore });
      const deliveryStatus = existing
        ? { deliveryStatus: { active: true, lastDeliveryAt: null, lastError: null } }
        : {};
      return { id, refreshBefore, cursor: deps.cursorOf(sub.position), truncated, ...deliveryStatus };
    },
    unsubscribe(params, authenticated) {
      if (!authenticated) throw forbidden();
      const p = subscribeParams.parse(params);
      const id = idOf(keyOf(p.delivery.url, p.name, p.arguments));
      if (!live.delete(id)) throw new McpError(-32011, 'NotFound', { kind: 'subscription' });
      return {};
    },
    deliver(event) {
      for (const sub of live.values()) {
        if (sub.name !== event.name || sub.expiresAt < Date.now()) continue;
        const body = {
          eventId: event.eventId,
          name: event.name,
          timestamp: event.timestamp,
          data: event.data,
          cursor: deps.cursorOf(event.seq),
        };
        // One at a time, so the watermark in each body is never ahead of an unacknowledged event.
        chain = chain
          .then(() => post(sub, event.eventId, body))
          .then((res) => {
            if (res.status < 300) sub.position = event.seq;
          })
          .catch(() => undefined);
      }
    },
    async gap() {
      for (const sub of live.values()) {
        sub.position = deps.log.length;
        await post(sub, `msg_gap_${randomBytes(6).toString('hex')}`, {
          type: 'gap',
          cursor: deps.cursorOf(sub.position),
        });
      }
    },
    async terminate(error) {
      for (const sub of [...live.values()]) {
        live.delete(sub.id);
        await post(sub, `msg_terminated_${randomBytes(6).toString('hex')}`, { type: 'terminated', error });
      }
    },
    close: () => chain.then(() => undefined),
  };
}
