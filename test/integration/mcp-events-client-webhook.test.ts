import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CallbackEndpointError,
  connect,
  createWebhookReceiver,
  cursorKey,
  ForbiddenError,
  generateSecret,
  InvalidParamsError,
  memoryCursorStore,
  subscribeWebhook,
  type EventsInfo,
  type WebhookReceiver,
} from '@switchboard/mcp-events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEventsServer, type EventsServer } from '../helpers/events-server.js';
import { sign } from '../helpers/events-webhooks.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';

// @switchboard/mcp-events' webhook loop and receiver against a real MCP server speaking the Events extension
// (test/helpers/events-server.ts), which answers events/subscribe after a verification handshake and POSTs signed
// Standard Webhooks deliveries to the receiver on 127.0.0.1.

const name = 'message.received';
const token = 'fixture-token';
let server: EventsServer;
let http: Server;
let hookUrl: string;
let echoless: Receiver;
let receiver: WebhookReceiver;
const store = memoryCursorStore();
const received: string[] = [];
const gaps: EventsInfo[] = [];

beforeAll(async () => {
  server = await startEventsServer({ grantMs: 3_000 });
  receiver = createWebhookReceiver({
    store,
    onEvents: (events, info) => {
      received.push(...events.map((e) => e.eventId));
      if (events.length === 0) gaps.push(info);
    },
  });
  http = createServer((req, res) => receiver.listener(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/hooks`;
  // An endpoint that answers 200 without echoing the challenge.
  echoless = await startReceiver(() => ({ status: 200, body: '{}' }));
});
afterAll(async () => {
  await server?.close();
  await echoless?.close();
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
});

const authed = () => connect({ url: server.url, token });

/** POSTs `body` to the receiver as the server would, signed with `secret`. */
async function deliver(
  subscriptionId: string,
  secret: string,
  body: object,
  tamper = false,
  deliveryId = `msg_${Math.random().toString(36).slice(2)}`,
) {
  const raw = JSON.stringify(body);
  const ts = Math.floor(Date.now() / 1000);
  return fetch(hookUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': deliveryId,
      'webhook-timestamp': String(ts),
      'webhook-signature': sign(secret, deliveryId, ts, raw).replace('v1,', tamper ? 'v1,AAAA' : 'v1,'),
      'x-mcp-subscription-id': subscriptionId,
    },
    body: raw,
  });
}

describe('subscribeWebhook', () => {
  it('answers the handshake, receives signed events, refreshes before refreshBefore with the latest cursor, and unsubscribes on abort', async () => {
    const args = { tag: 'live' };
    const controller = new AbortController();
    const waits: number[] = [];
    const grants: Array<{ id: string; refreshBefore: string | null }> = [];
    const loop = subscribeWebhook({
      client: authed,
      name,
      arguments: args,
      url: hookUrl,
      receiver,
      store,
      cursor: `c${server.log.length}`,
      // Halfway through each 3 s grant: a loaded machine's late timer still refreshes before it lapses.
      refreshAt: 0.5,
      signal: controller.signal,
      onSubscribed: (r) => void grants.push({ id: r.id, refreshBefore: r.refreshBefore }),
      delay: async (ms, signal) => {
        waits.push(ms);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
      },
    });
    await waitUntil(() => grants.length === 1, 30_000, 'the subscription');
    expect(server.webhooks.posts[0]).toMatchObject({ kind: 'verification', status: 200 });
    const id = grants[0]!.id;

    const events = [server.emit(name, { n: 1 }), server.emit(name, { n: 2 })];
    await waitUntil(() => events.every((e) => received.includes(e.eventId)), 30_000, 'both events');
    await waitUntil(async () => (await store.load(cursorKey(name, args))) === `c${events[1]!.seq}`, 30_000, 'cursor');

    await waitUntil(() => grants.length >= 2, 30_000, 'a refresh');
    const calls = server.webhooks.subscribes.filter((s) => s.id === id);
    expect(calls.map((c) => c.lapsed)).toEqual([true, false, ...calls.slice(2).map(() => false)]);
    // Each wait was shorter than the grant it followed.
    for (const [i, ms] of waits.entries()) expect(ms).toBeLessThan(server.webhooks.subscribes[i]!.grantedMs);
    const refresh = server.calls.filter((c) => c.method === 'events/subscribe' && c.params.arguments?.tag === 'live');
    expect(refresh[1]!.params.cursor).toBe(`c${events[1]!.seq}`);
    expect(refresh[1]!.params.delivery.secret).toBe(refresh[0]!.params.delivery.secret);
    expect(refresh[0]!.params.delivery.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    // The receiver refuses what the subscription's secret did not sign, and hands it to no one.
    const before = received.length;
    const forged = { eventId: 'evt_forged', name, timestamp: new Date().toISOString(), data: {}, cursor: 'c0' };
    expect((await deliver(id, generateSecret(), forged)).status).toBe(401);
    expect((await deliver(id, refresh[0]!.params.delivery.secret, forged, true)).status).toBe(401);
    const unsigned = await fetch(hookUrl, {
      method: 'POST',
      body: JSON.stringify(forged),
      headers: { 'x-mcp-subscription-id': id },
    });
    expect(unsigned.status).toBe(401);
    const sentinel = server.emit(name, { n: 'sentinel' });
    await waitUntil(() => received.includes(sentinel.eventId), 30_000, 'the sentinel');
    expect(received.slice(before)).toEqual([sentinel.eventId]);

    controller.abort();
    expect(await loop).toEqual({ reason: 'aborted' });
    expect(server.calls.at(-1)).toMatchObject({ method: 'events/unsubscribe', params: { delivery: { url: hookUrl } } });
    expect(server.webhooks.live.has(id)).toBe(false);
    await waitUntil(() => server.connections() === 0, 30_000, 'every socket to the MCP server closed');
  });

  it('hands a gap envelope to onEvents as truncated and saves its cursor; a redelivered webhook-id is handed on once', async () => {
    const args = { tag: 'gap' };
    const controller = new AbortController();
    const grants: string[] = [];
    const loop = subscribeWebhook({
      client: authed,
      name,
      arguments: args,
      url: hookUrl,
      receiver,
      store,
      signal: controller.signal,
      onSubscribed: (r) => void grants.push(r.id),
    });
    await waitUntil(() => grants.length === 1, 30_000, 'the subscription');
    const secret = server.calls.filter((c) => c.method === 'events/subscribe' && c.params.arguments?.tag === 'gap')[0]!
      .params.delivery.secret;
    server.emit('contact.created', { skipped: true });
    const gapsBefore = gaps.length;
    await server.webhooks.gap();
    await waitUntil(() => gaps.length > gapsBefore, 30_000, 'the gap');
    expect(gaps.at(-1)).toEqual({ cursor: `c${server.log.length}`, truncated: true });
    expect(await store.load(cursorKey(name, args))).toBe(`c${server.log.length}`);

    const event = { eventId: 'evt_twice', name, timestamp: new Date().toISOString(), data: {}, cursor: 'c1' };
    expect((await deliver(grants[0]!, secret, event, false, 'evt_twice')).status).toBe(200);
    expect((await deliver(grants[0]!, secret, event, false, 'evt_twice')).status).toBe(200);
    expect(received.filter((id) => id === 'evt_twice')).toHaveLength(1);
    controller.abort();
    expect(await loop).toEqual({ reason: 'aborted' });
  });

  it('ends with the error of a terminated envelope, without unsubscribing', async () => {
    const grants: string[] = [];
    const loop = subscribeWebhook({
      client: authed,
      name,
      arguments: { tag: 'ended' },
      url: hookUrl,
      receiver,
      onSubscribed: (r) => void grants.push(r.id),
    });
    await waitUntil(() => grants.length === 1, 30_000, 'the subscription');
    const calls = server.calls.length;
    await server.webhooks.terminate({ code: -32012, message: 'Forbidden' });
    const end = await loop;
    expect(end.reason).toBe('terminated');
    expect(end.reason === 'terminated' && end.error).toBeInstanceOf(ForbiddenError);
    expect(server.calls.slice(calls).map((c) => c.method)).toEqual([]);
  });

  it('maps refusals to typed errors: no principal, a bad secret, an endpoint that does not echo the challenge', async () => {
    const base = { name, url: hookUrl, receiver };
    await expect(subscribeWebhook({ ...base, client: () => connect({ url: server.url }) })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(subscribeWebhook({ ...base, client: authed, secret: 'whsec_c2hvcnQ=' })).rejects.toBeInstanceOf(
      InvalidParamsError,
    );
    const failed = subscribeWebhook({ ...base, client: authed, url: echoless.url });
    await expect(failed).rejects.toBeInstanceOf(CallbackEndpointError);
    await expect(failed).rejects.toMatchObject({ code: -32015, data: { reason: 'challenge_failed' } });
  });

  it('answers a delivery for a subscription it was never told of with 404, and a body with no subscription id with 400', async () => {
    expect((await deliver('sub_unknown', generateSecret(), { type: 'verification', challenge: 'x' })).status).toBe(404);
    const res = await fetch(hookUrl, { method: 'POST', body: '{}' });
    expect(res.status).toBe(400);
  });
});
