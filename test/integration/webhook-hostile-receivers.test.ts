import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Receivers an operator's worst day brings, all at once, next to a healthy receiver of another account: each
// hostile one is recorded with the right error within the timeout, and the healthy account's deliveries arrive
// once each, on time. One attempt per delivery here (the retry waits 60 s).

// Long enough that the healthy deliveries, made after the hostile ones, all arrive before the first timeout, loaded or not.
const TIMEOUT_MS = 8000;
let t: TestContext;
let api: Client;
const servers: Server[] = [];
const receivers: Receiver[] = [];
/** When the silent receiver's request was closed by the service (its timeout), by this process's clock. */
const cutOff: { silent?: number } = {};

beforeAll(async () => {
  t = await createTestContext({
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '60000',
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  api = client(t.url);
  await t.startWorkers();
});
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
});

/** A raw HTTP server whose handler misbehaves on purpose; answers its URL. */
async function hostile(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const KINDS = {
  // 3 MB answered with 200: a success, of which 4 KiB are kept.
  huge: (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(3 * 1024 * 1024)),
  // Reads the request and never answers.
  silent: (req) => req.socket.once('close', () => (cutOff.silent ??= Date.now())),
  // Starts a 200 with a promised length, then resets the connection half way through the body.
  reset: (_req, res) => {
    res.writeHead(200, { 'content-length': '10000' });
    res.write('partial');
    setTimeout(() => res.socket?.resetAndDestroy(), 20);
  },
  // One byte a second, forever.
  drip: (_req, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('.')), 1000);
    res.on('close', () => clearInterval(timer));
  },
  // A 200 with 200 headers: the attempt keeps 50 of them.
  manyHeaders: (_req, res) => {
    for (let i = 0; i < 200; i++) res.setHeader(`x-h-${i}`, `value-${i}`);
    res.writeHead(200).end('ok');
  },
  // A 200 with one 12 000-character header: the attempt keeps 4096 characters of names and values.
  hugeHeader: (_req, res) => res.writeHead(200, { 'x-big': 'y'.repeat(12_000) }).end('ok'),
} satisfies Record<string, Parameters<typeof createServer>[1]>;

describe('hostile receivers', () => {
  it('are each recorded with the right error within the timeout, while another account is served on time', async () => {
    const bad = await signupAccount(api);
    const hooks: Record<string, string> = {};
    for (const [kind, handler] of Object.entries(KINDS)) {
      const res = await api.post('/v1/webhooks', {
        token: bad.token,
        body: { url: await hostile(handler), events: ['message.received'] },
      });
      hooks[kind] = res.body.id;
    }
    const good = await signupAccount(api);
    const healthy = await startReceiver();
    receivers.push(healthy);
    await api.post('/v1/webhooks', { token: good.token, body: { url: healthy.url, events: ['message.received'] } });

    await transactWithEvents(t.deps, bad.accountId, (_trx, e) =>
      e({ type: 'message.received', payload: { id: 'to-the-hostile' } }),
    );
    for (let i = 0; i < 20; i++) {
      await transactWithEvents(t.deps, good.accountId, (_trx, e) =>
        e({ type: 'message.received', payload: { id: `g${i}` } }),
      );
    }
    const arrived = await healthy.waitFor(20, 30_000);
    // Nobody waited for the hostile receivers: every healthy delivery arrived before the first of them timed out.
    const firstCutOff = await waitUntil(() => cutOff.silent, 30_000, 'the silent receiver to be cut off');
    expect(Math.max(...arrived.map((a) => a.at))).toBeLessThan(firstCutOff);

    const attempts = await waitUntil(
      async () => {
        const rows = await t.deps.db('webhook_attempts').where({ account_id: bad.accountId });
        return rows.length === Object.keys(KINDS).length && rows;
      },
      30_000,
      'one attempt per hostile receiver',
    );
    const byHook = new Map(attempts.map((a) => [a.webhook_id, a]));
    expect(byHook.get(hooks.huge!)).toMatchObject({ status: 'succeeded', response_status: 200, error: null });
    expect(byHook.get(hooks.huge!)!.response_body).toHaveLength(4096);
    expect(byHook.get(hooks.silent!)).toMatchObject({ status: 'failed', error: 'timeout', response_status: null });
    expect(byHook.get(hooks.reset!)).toMatchObject({ status: 'failed', error: 'connection_refused' });
    expect(byHook.get(hooks.drip!)).toMatchObject({ status: 'failed', error: 'timeout' });
    // Each timed out at the timeout, the drip too (a deadline for the whole answer, not for each byte).
    for (const kind of ['silent', 'drip'])
      expect(byHook.get(hooks[kind]!)!.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS);
    // Answer headers are kept within their bounds, with an entry saying what was left out.
    const many = byHook.get(hooks.manyHeaders!)!.response_headers as Record<string, string>;
    expect(Object.keys(many)).toHaveLength(51);
    expect(many['x-h-0']).toBe('value-0');
    expect(many['[truncated]']).toMatch(/^\d+ header\(s\) dropped/);
    const big = byHook.get(hooks.hugeHeader!)!.response_headers as Record<string, string>;
    const { '[truncated]': marker, ...kept } = big;
    expect(marker).toMatch(/one value cut/);
    expect(big['x-big']).toBe('y'.repeat(4096 - 'x-big'.length));
    expect(Object.entries(kept).reduce((n, [k, v]) => n + k.length + v.length, 0)).toBeLessThanOrEqual(4096);

    // Every healthy delivery arrived once: a later event arrives alone.
    await transactWithEvents(t.deps, good.accountId, (_trx, e) =>
      e({ type: 'message.received', payload: { id: 'sentinel' } }),
    );
    await waitUntil(() => healthy.received.some((r) => r.body.payload.id === 'sentinel'), 30_000, 'the sentinel');
    expect(healthy.received).toHaveLength(21);
    expect(new Set(healthy.received.map((r) => r.body.id)).size).toBe(21);
  });
});
