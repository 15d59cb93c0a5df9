import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { redisAnswers } from '../../../src/platform/redis.js';
import { endChild, spawnChild } from '../children.js';
import { freePort } from '../ports.js';
import { waitFor, waitUntil } from '../wait.js';
import type { Arrived, Destination, DestinationKindDriver } from './driver.js';

/**
 * redis: a redis-server of the test's own on a free port (never the shared one), with an ACL user `publisher` that
 * the subscriptions publish as, by password; each destination is the streams under a prefix of its own, read back
 * here as the default user. Refusing takes XADD from the publisher, so each attempt is refused (NOPERM).
 */
export function redisDriver(): DestinationKindDriver & { port(): number; password: string } {
  const password = `sb-redis-${randomBytes(8).toString('hex')}`;
  let child: ChildProcess | undefined;
  let port = 0;
  let admin: Redis | undefined;
  return {
    kind: 'redis',
    password,
    port: () => port,
    async start() {
      port = await freePort();
      child = spawnChild(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']
          .concat(['--stream-node-max-entries', '2'])
          .concat(['--user', 'publisher', 'on', `>${password}`, '~*', '&*', '+@all']),
        { stdio: 'ignore' },
      );
      const url = `redis://127.0.0.1:${port}`;
      await waitUntil(() => redisAnswers(url), 30_000, 'the redis-server of the redis destinations to answer');
      admin = new Redis(url, { maxRetriesPerRequest: 1 });
      admin.on('error', () => undefined);
    },
    async destination(): Promise<Destination> {
      const prefix = `sbt${randomBytes(4).toString('hex')}`;
      // Every entry under the prefix, in the order the server appended them (entry ids grow across its streams).
      const read = async (): Promise<Arrived[]> => {
        const keys = await admin!.keys(`${prefix}:*`);
        const entries = (
          await Promise.all(
            keys.map(async (key) => (await admin!.xrange(key, '-', '+')).map(([id, fields]) => ({ key, id, fields }))),
          )
        ).flat();
        entries.sort((a, b) => entryOrder(a.id, b.id));
        return entries.map(({ key, fields }) => {
          const headers: Record<string, string> = {};
          let raw = '';
          for (let i = 0; i < fields.length; i += 2)
            if (fields[i] === 'body') raw = fields[i + 1]!;
            else headers[fields[i]!.toLowerCase()] = fields[i + 1]!;
          return { headers, raw, body: JSON.parse(raw), address: key, messageId: headers['webhook-id']! };
        });
      };
      let delivered: Arrived[] = [];
      return {
        fields: {
          kind: 'redis',
          url: `redis://publisher:${password}@127.0.0.1:${port}/0`,
          streamKey: `${prefix}:{event}`,
          maxLength: 1000,
        },
        addressOf: (event) => `${prefix}:${event}`,
        arrived: () => delivered,
        waitFor: (n, timeoutMs = 30_000) =>
          waitFor(
            async () => (delivered = await read()),
            (d) => d.length >= n,
            { timeoutMs, what: `${n} entries in the streams ${prefix}:*` },
          ),
        refuse: async () => void (await admin!.call('ACL', 'SETUSER', 'publisher', '-xadd')),
        accept: async () => void (await admin!.call('ACL', 'SETUSER', 'publisher', '+xadd')),
        close: async () => undefined,
      };
    },
    secrets: () => [password],
    async stop() {
      admin?.disconnect();
      if (child) await endChild(child);
    },
  };
}

/** Stream entry ids `ms-seq` in order. */
function entryOrder(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number) as [number, number];
  const [bm, bs] = b.split('-').map(Number) as [number, number];
  return am - bm || as - bs;
}
