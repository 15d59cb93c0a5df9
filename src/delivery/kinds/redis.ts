import { Redis } from 'ioredis';
import { z } from 'zod';
import { text } from '../../platform/input.js';
import { outText } from '../../platform/output.js';
import { brokerUrlProblem, expandTemplate, redactBrokerUrl, routingKeyProblem, templateOf } from '../broker-target.js';
import type { Transport } from '../transport.js';
import { createBrokerPool, within, type Pooled } from '../transports/broker-pool.js';
import { brokerFailure, BrokerRefusal, guardedAddress, startClock } from '../transports/broker-errors.js';
import { defineKind, type TransportParts } from './kind.js';

// redis (docs/webhooks.md#destination-kinds): the signed envelope appended with XADD … MAXLEN ~ maxLength to the
// stream `streamKey` (a template whose one placeholder is `{event}`) on the redis:// or rediss:// server at url.
// The entry's fields are `body` (the envelope, as signed) and each signature header by its name; the server's
// reply (the entry id) is the success. The URL's password is sealed with it. One connection per URL per process,
// through the address guard, never reconnecting by itself: a lost one is forgotten and the next attempt opens anew.

const SCHEMES = ['redis:', 'rediss:'];
const DEFAULT_PORT = 6379;

/** The URL taken apart: where to dial and who to be. Holds the password: never log or store it. */
function parseRedisUrl(url: string) {
  const u = new URL(url);
  const db = u.pathname.replace(/^\//, '');
  return {
    tls: u.protocol === 'rediss:',
    hostname: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : DEFAULT_PORT,
    username: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    db: db ? Number(db) : 0,
  };
}

/** Why a Redis URL is refused, or null: a broker URL whose path, if any, is a database number. */
function redisUrlProblem(url: string): string | null {
  const problem = brokerUrlProblem({ schemes: SCHEMES, path: true }, url);
  if (problem) return problem;
  const db = new URL(url).pathname.replace(/^\//, '');
  return db === '' || /^\d{1,2}$/.test(db) ? null : 'its path, if any, is a database number (0 to 99)';
}

const settings = z.object({ streamKey: text(), maxLength: z.number().int() });

interface Connection extends Pooled {
  client: Redis;
}

async function openRedis(url: string, allowPrivate: boolean, timeoutMs: number, lost: () => void) {
  const a = parseRedisUrl(url);
  const address = await guardedAddress(a.hostname, allowPrivate);
  const client = new Redis({
    // A TLS connection dials the name its certificate carries (checked by the guard just now); plain ones the address.
    host: a.tls ? a.hostname : address,
    port: a.port,
    // A user name without a password is the password (AUTH <password>), as redis-cli reads such a URL.
    ...(a.password
      ? { username: a.username || undefined, password: a.password }
      : a.username
        ? { password: a.username }
        : {}),
    db: a.db,
    ...(a.tls ? { tls: { servername: a.hostname } } : {}),
    connectTimeout: timeoutMs,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectionName: 'switchboard',
  });
  // A refused AUTH arrives as an 'error' event, and connect() then rejects with only "Connection is closed".
  let refused: unknown;
  client.on('error', (err) => (refused ??= err));
  client.once('end', lost);
  try {
    await client.connect();
  } catch (err) {
    lost();
    client.disconnect();
    throw refused ?? err;
  }
  const connection: Connection = {
    client,
    async close() {
      lost();
      client.disconnect();
    },
  };
  return connection;
}

/** A refusal in the server's words (at AUTH or at XADD): a credential or permission it refuses is auth_failed. */
const refusalOf = (err: unknown): unknown =>
  /^(WRONGPASS|NOAUTH|NOPERM)/.test(String((err as Error)?.message ?? ''))
    ? new BrokerRefusal('auth_failed', (err as Error).message)
    : err;

function createRedisTransport({ config, urls, logger }: TransportParts): Transport {
  const { timeoutMs, allowPrivateTargets } = config.webhooks;
  const pool = createBrokerPool<Connection>();
  return {
    async send(request) {
      const elapsed = startClock();
      const url = urls.open(request.target.urlSealed!);
      const target = settings.parse(request.target.settings);
      const key = expandTemplate(target.streamKey, request.event);
      const fields = ['body', request.body, ...Object.entries(request.headers).flat()];
      try {
        const id = await within(
          timeoutMs,
          (async () => {
            const { client } = await pool.get(url, (lost) => openRedis(url, allowPrivateTargets, timeoutMs, lost));
            return client.xadd(key, 'MAXLEN', '~', String(target.maxLength), '*', ...fields);
          })(),
          'append the entry',
        );
        return { ok: true, body: String(id), durationMs: elapsed() };
      } catch (err) {
        const { username, password } = parseRedisUrl(url);
        const answer = brokerFailure(refusalOf(err), elapsed(), [url, password || username]);
        if (!answer.ok) logger.debug({ webhookId: request.webhookId, error: answer.error }, 'redis publish failed');
        return answer;
      }
    },
    close: () => pool.close(),
  };
}

export const redis = defineKind({
  name: 'redis',
  created: true,
  pulled: false,
  url: {
    problem: redisUrlProblem,
    host: (url) => parseRedisUrl(url).hostname,
    redact: redactBrokerUrl,
  },
  fields: [
    {
      name: 'streamKey',
      input: templateOf(routingKeyProblem).describe(
        'redis: the stream key; `{event}` is replaced by the event name (e.g. `switchboard:{event}`)',
      ),
      output: outText().describe('redis: the stream key template; null for other kinds'),
      label: "redis: stream key (a template; {event} is the event's type)",
      placeholder: 'switchboard:{event}',
    },
    {
      name: 'maxLength',
      input: z
        .number()
        .int()
        .min(1)
        .max(10_000_000)
        .describe('redis: the stream is trimmed to about this many entries (XADD MAXLEN ~), 1 to 10000000'),
      output: z.number().int().describe('redis: the length the stream is trimmed to, about; null for other kinds'),
      label: 'redis: keep about this many entries (MAXLEN ~)',
      placeholder: '100000',
      numeric: true,
    },
  ],
  transport: createRedisTransport,
  label: 'appended to the Redis stream',
  description:
    'appended with XADD (MAXLEN ~ `maxLength`) to the stream `streamKey` on the redis:// or rediss:// server at url',
  urlPlaceholder: 'rediss://:PASSWORD@redis.example.com:6379/0',
  urlForm: 'redis:// or rediss://',
  where: (w) => `stream ${String(w.streamKey ?? '')} · about ${String(w.maxLength ?? '')} entries`,
});
