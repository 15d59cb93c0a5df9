import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Deps } from '../../src/app/deps.js';
import { createDelivery } from '../../src/delivery/index.js';
import { createQueues } from '../../src/platform/queues.js';
import { createApiRedis } from '../../src/platform/redis.js';

/** Deps whose queues point at a Redis that is not there: every enqueue fails, as during a Redis outage. */
export function withDeadQueue(deps: Deps): { deps: Deps; close(): Promise<void> } {
  const dead = createApiRedis('redis://127.0.0.1:1', { retryStrategy: () => null });
  dead.on('error', () => undefined);
  const queues = createQueues(dead, deps.config.bullmqPrefix, () => undefined, deps.config.webhooks.shards);
  // The delivery's batches add to the queues they were built with: a delivery of its own on the dead ones.
  const delivery = createDelivery({ ...deps, queues }, deps.http, deps.sealers.webhook);
  return {
    deps: { ...deps, queues, delivery },
    close: async () => {
      // Hand-offs still adding to the dead queues fail first (deps.background is shared with `deps`).
      await deps.background.settled();
      await delivery.close();
      await queues.close().catch(() => undefined);
      dead.disconnect();
    },
  };
}

/**
 * Deps whose queues point at a server that takes the connection and never answers: every enqueue waits until
 * `release`, which cuts the connection (the enqueues then fail, as when Redis goes away mid-command).
 */
export async function withStalledQueue(deps: Deps): Promise<{ deps: Deps; release(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  // No ready check: the client counts as ready once connected, so commands are sent, and wait for a reply.
  const stalled = createApiRedis(`redis://127.0.0.1:${port}`, { retryStrategy: () => null, enableReadyCheck: false });
  stalled.on('error', () => undefined);
  const queues = createQueues(stalled, deps.config.bullmqPrefix, () => undefined, deps.config.webhooks.shards);
  const delivery = createDelivery({ ...deps, queues }, deps.http, deps.sealers.webhook);
  return {
    deps: { ...deps, queues, delivery },
    release: async () => {
      for (const socket of sockets) socket.destroy();
      await deps.background.settled();
      await delivery.close();
      await queues.close().catch(() => undefined);
      stalled.disconnect();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
