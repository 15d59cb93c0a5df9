import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.js';
import { CONNECTIONS_PER_ORIGIN, createHttpClient } from '../../src/platform/http-client.js';

// The outbound client's timeout is the receiver's: it starts when one of the origin's connections takes the
// request, so a burst larger than the pool waits for connections without being timed out by the wait.

const TIMEOUT_MS = 6000;
/**
 * Each answer takes this long: one wave fits in the timeout with 2.5 s to spare for a loaded machine's delays, two
 * waves (a wait in the pool, then its own) overrun it by a second.
 */
const ANSWER_MS = 3500;

const config = loadConfig({
  NODE_ENV: 'test',
  APP_SECRET: 'x'.repeat(40),
  WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
});
const client = createHttpClient(config);
const servers: Server[] = [];
afterAll(async () => {
  await client.close();
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

/** A receiver that answers every request after ANSWER_MS, counting the connections open at once. */
async function slowReceiver() {
  const seen = { open: 0, most: 0, requests: 0 };
  const server = createServer((req, res) => {
    seen.requests++;
    req.resume().on('end', () => setTimeout(() => res.writeHead(200).end('ok'), ANSWER_MS));
  });
  server.on('connection', (socket) => {
    seen.most = Math.max(seen.most, ++seen.open);
    socket.on('close', () => seen.open--);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen };
}

describe('the outbound HTTP client', () => {
  it('gives a request its whole timeout once a connection takes it, however long it waited for one', async () => {
    const receiver = await slowReceiver();
    const burst = CONNECTIONS_PER_ORIGIN + 44;
    const answers = await Promise.all(Array.from({ length: burst }, () => client.post(receiver.url, '{}', {})));

    expect(answers.filter((a) => !a.ok)).toEqual([]);
    expect(receiver.seen.requests).toBe(burst);
    // The pool held to its bound, so the last 44 waited a whole answer for a connection…
    expect(receiver.seen.most).toBeLessThanOrEqual(CONNECTIONS_PER_ORIGIN);
    // …and each attempt's duration is the receiver's time, not that wait.
    for (const a of answers) expect(a.durationMs).toBeLessThan(TIMEOUT_MS);
  });

  it('still times out a receiver that holds the request past the timeout', async () => {
    const server = createServer(() => undefined);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const answer = await client.post(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, '{}', {});
    expect(answer).toMatchObject({ ok: false, error: 'timeout' });
    expect(answer.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
  });
});
