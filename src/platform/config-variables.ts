import { z } from 'zod';
import {
  BOOL_WANTED,
  bool,
  intIn,
  isListenAddress,
  namedNumbers,
  originList,
  redisNodes,
  retryDelays,
  shardList,
} from './config-parsers.js';

// Every environment variable the service reads: how it is parsed, what a value must be, and one line saying what
// it is for. src/platform/config.ts parses them; scripts/docs-config.ts writes the tables of docs/configuration.md
// from them, and test/unit/config-docs.test.ts holds the committed tables to that.

export interface VariableDoc {
  /** What a value must be: ends "NAME must be …, got …" and is the docs' allowed values. */
  wanted: string;
  /** One line for docs/configuration.md (Markdown). */
  about: string;
  /** The default as the docs say it, where it is not a value of the schema (computed or generated at start). */
  defaultText?: string;
  /** Its value is never repeated in an error (a password, or a URL that may hold one). */
  secret?: boolean;
}

const variable = <S extends z.ZodType>(schema: S, doc: VariableDoc) => ({ schema, doc });
const ms = (min: number, max: number) => `a whole number of milliseconds between ${min} and ${max}`;
const whole = (min: number, max: number) => `a whole number between ${min} and ${max}`;

/** MCP_WEBHOOK_LIMITS's names, and its default (docs/mcp-events-webhook.md#ttl). */
export const MCP_WEBHOOK_LIMIT_NAMES = ['ttl-ms', 'min-ttl-ms', 'max-ttl-ms', 'per-principal', 'no-expiry'] as const;
export const MCP_WEBHOOK_DEFAULTS = {
  'ttl-ms': 3_600_000,
  'min-ttl-ms': 60_000,
  'max-ttl-ms': 86_400_000,
  'per-principal': 100,
  'no-expiry': 0,
};
const MCP_WEBHOOK_LIMITS_DEFAULT = Object.entries(MCP_WEBHOOK_DEFAULTS)
  .map(([k, v]) => `${k}=${v}`)
  .join(',');

/** The most worker processes WORKERS may ask npm start for. */
export const MAX_WORKERS = 64;
/** Most delivery shards WEBHOOK_SHARDS may ask for. */
export const MAX_PARTITIONS = 256;

// Repeating maintenance jobs and how often each runs (SCHEDULE_INTERVALS_MS overrides any of them).
export const SCHEDULE_DEFAULTS_MS = {
  'sweep-expired-sessions': 15 * 60_000,
  'sweep-expired-keys': 60_000,
  'relay-outbox': 30_000,
  'requeue-stuck-work': 60_000,
  'maintain-partitions': 3600_000,
  'prune-webhook-stats': 3600_000,
  'sweep-idempotency-keys': 15 * 60_000,
} as const;
export type ScheduleId = keyof typeof SCHEDULE_DEFAULTS_MS;
// Every worker process's own periodic looks, set in SCHEDULE_INTERVALS_MS beside the jobs: how often it checks
// that each job scheduler exists (re-creating a lost or stuck one), and how often its watchdog looks at its
// workers, replacing one that had room and took no job since the last look while one was ready at both.
export const PROCESS_INTERVALS_MS = { 'check-schedulers': 30_000, 'watch-workers': 10_000 } as const;
const INTERVAL_NAMES = [...Object.keys(SCHEDULE_DEFAULTS_MS), ...Object.keys(PROCESS_INTERVALS_MS)];

// Jobs in flight per worker process, per queue (each delivery shard is a webhook-delivery queue).
export const CONCURRENCY_DEFAULTS = {
  'webhook-delivery': 50,
  'webhook-fanout': 50,
  'message-send': 20,
  'agent-runs': 20,
  maintenance: 5,
} as const;

/**
 * How deliveries share round trips (docs/configuration.md#delivery-batching links each figure's measurement):
 * the first attempts of deliveries scheduled together share a job of up to `deliveriesPerJob`; the first of a
 * process's commits waits `armWindowMs` for others to share it; a worker's load and record statements wait
 * `batchWindowMs` for company, and an unordered delivery's record `recordWindowMs` (after its POST).
 */
export const BATCHING_PROFILES = {
  // Nothing waits and every delivery has its own job: the least latency, about half as much CPU again per event
  // at 400/s (0.86 jobs per event against 0.44).
  latency: { batchWindowMs: 0, recordWindowMs: 0, deliveriesPerJob: 1, armWindowMs: 0 },
  // The measured defaults: records wait 20 ms, which cuts record statements sevenfold and Postgres's CPU per event
  // by 15-23 %; commits wait 5 ms, which keeps the CPU goal at 400/s and takes 5 ms off the p99 against 10.
  balanced: { batchWindowMs: 0, recordWindowMs: 20, deliveriesPerJob: 10, armWindowMs: 5 },
  // Less CPU for a few ms more per delivery: a 10 ms commit window carries 3.6 deliveries a job at 400/s against
  // 2.4 with 5 (0.81-0.89x the CPU floor against 1.01-1.06x); a 5 ms statement window halves the worker's load
  // round trips and takes 15 % off Postgres's CPU, paid by every ordered key; 20 a job lets the default 50 slots
  // take a 1,000-delivery fan-out in one round, as 10 a job did for 100 slots. A longer record window did no
  // better than 20 ms.
  throughput: { batchWindowMs: 5, recordWindowMs: 20, deliveriesPerJob: 20, armWindowMs: 10 },
} satisfies Record<string, Record<'batchWindowMs' | 'recordWindowMs' | 'deliveriesPerJob' | 'armWindowMs', number>>;
export type BatchingProfile = keyof typeof BATCHING_PROFILES;

/** Every variable the service itself reads. */
export const VARIABLES = {
  NODE_ENV: variable(z.enum(['development', 'production', 'test']).default('development'), {
    wanted: 'development, production or test',
    about: '`production` makes `APP_SECRET` mandatory and generates no operator credentials',
  }),
  PORT: variable(intIn(0, 65535).default(3000), { wanted: 'a port number between 0 and 65535', about: 'HTTP port' }),
  HOST: variable(z.string().refine(isListenAddress).optional(), {
    wanted: 'an IP address to listen on, e.g. 0.0.0.0 (every interface) or 127.0.0.1',
    about: "the address the API (and a worker's metrics port) listens on ([production.md](production.md))",
    defaultText: '127.0.0.1; 0.0.0.0 with `NODE_ENV=production` (and in the image)',
  }),
  METRICS_PORT: variable(intIn(1, 65535).optional(), {
    wanted: 'a port number between 1 and 65535',
    about:
      'a worker process serves `/metrics` (ops credentials) and `/healthz` on this port; under `npm start`, worker k uses this port + k',
  }),
  WORKERS: variable(
    z
      .string()
      .trim()
      .refine((v) => v === 'auto' || (/^\d+$/.test(v) && Number(v) <= MAX_WORKERS))
      .transform((v): 'auto' | number => (v === 'auto' ? 'auto' : Number(v)))
      .optional(),
    {
      wanted: `auto or ${whole(0, MAX_WORKERS)}`,
      about:
        "`npm start`'s worker processes beside the API process: `auto` (one per spare core, at least one), `0` for everything in one process ([processes.md](processes.md))",
      defaultText: 'auto',
    },
  ),
  SHUTDOWN_TIMEOUT_MS: variable(intIn(100, 600_000).default(25_000), {
    wanted: ms(100, 600_000),
    about: 'how long SIGTERM/SIGINT waits for requests and jobs in flight before the process exits anyway',
  }),
  DATABASE_URL: variable(z.string().url().optional(), {
    wanted: 'a URL, e.g. postgres://user:password@host:5432/switchboard',
    about: 'Postgres; created if missing; embedded fallback when unset and nothing answers',
    defaultText: '`postgres://postgres@127.0.0.1:5432/switchboard`',
    secret: true,
  }),
  REDIS_URL: variable(z.string().url().optional(), {
    wanted: 'a URL, e.g. redis://host:6379',
    about: 'Redis; `redis-server` child fallback when unset and nothing answers',
    defaultText: '`redis://127.0.0.1:6379`',
    secret: true,
  }),
  REDIS_CLUSTER_NODES: variable(redisNodes.optional(), {
    wanted: 'host:port pairs separated by commas, e.g. 10.0.0.1:6379,10.0.0.2:6379',
    about:
      'a Redis Cluster instead of `REDIS_URL` (not both); a few nodes are enough. Needs `BULLMQ_PREFIX` in `{…}` form ([operations.md](operations.md#redis-cluster))',
  }),
  BULLMQ_PREFIX: variable(
    z
      .string()
      .min(1)
      .max(64)
      .regex(/^[^:\s]+$/)
      .default('sb'),
    {
      wanted: '1 to 64 characters without ":" or spaces',
      about:
        'prefix of every Redis key the service writes; with `REDIS_CLUSTER_NODES` it must carry a hash tag, e.g. `{sb}`',
    },
  ),
  APP_SECRET: variable(z.string().min(32).optional(), {
    wanted: 'at least 32 characters',
    about:
      'key material for AES-256-GCM encryption of webhook and integration secrets at rest; every process must share it',
    defaultText: 'generated into `.data/app-secret` in development; required when `NODE_ENV=production`',
    secret: true,
  }),
  OPS_USERNAME: variable(z.string().min(1).optional(), {
    wanted: 'a user name',
    about:
      'HTTP Basic user for `/admin/queues` and `/metrics`, with `OPS_PASSWORD` (set both or neither); in production, unset means both answer 404',
    defaultText: '`ops` in `.data/ops-credentials` unless `NODE_ENV=production`',
  }),
  OPS_PASSWORD: variable(z.string().min(1).optional(), {
    wanted: 'a password',
    about:
      'its password; the generated file is one line `ops:<password>`, the form `curl -u "$(cat .data/ops-credentials)"` takes',
    defaultText: 'generated into `.data/ops-credentials` unless `NODE_ENV=production`',
    secret: true,
  }),
  PUBLIC_URL: variable(
    z
      .string()
      .regex(/^https?:\/\/[^/?#\s]+\/?$/)
      .transform((s) => s.replace(/\/$/, ''))
      .optional(),
    {
      wanted: 'an origin like https://api.example.com (no path, query or fragment)',
      about:
        'the origin clients reach the API at; the OAuth issuer and MCP resource URLs derive from it. Set it in production, the same on every instance',
      defaultText: 'the address the server listens on',
    },
  ),
  MCP_ALLOWED_ORIGINS: variable(originList.optional(), {
    wanted: 'origins separated by commas, each scheme://host[:port] with no path, e.g. https://app.example.com',
    about:
      "browser origins besides `PUBLIC_URL`'s allowed on the MCP and OAuth endpoints; any other `Origin` gets 403 ([mcp.md](mcp.md))",
  }),
  MCP_WEBHOOK_LIMITS: variable(namedNumbers(MCP_WEBHOOK_LIMIT_NAMES, 0).optional(), {
    wanted: `name=number pairs separated by commas, of ${MCP_WEBHOOK_LIMIT_NAMES.join(', ')}`,
    about:
      'MCP events webhook mode ([mcp-events-webhook.md](mcp-events-webhook.md#ttl)): the TTL granted when `ttlMs` is omitted, its floor and ceiling (ms), live subscriptions per principal, and `no-expiry=1` to grant `ttlMs: null` as asked; the ones named replace their default',
    defaultText: `\`${MCP_WEBHOOK_LIMITS_DEFAULT}\``,
  }),
  SIGN_IN_LIMITS: variable(namedNumbers(['ip', 'email'], 1).optional(), {
    wanted: 'ip=number and/or email=number, each at least 1, e.g. ip=1000,email=10',
    about:
      'sign-in attempts (login, signup, the OAuth sign-in form) per client IP, and per email, in 15 minutes; a successful one is given back to its email',
    defaultText: '`ip=200,email=10`',
  }),
  TRUST_PROXY_HOPS: variable(intIn(0, 10).default(0), {
    wanted: whole(0, 10),
    about: 'how many X-Forwarded-For hops to trust for the client IP',
  }),
  SIGNUP_ENABLED: variable(bool.default(true), {
    wanted: BOOL_WANTED,
    about: 'whether `POST /v1/auth/signup` is open',
  }),
  KEY_ROTATION_GRACE_SECONDS: variable(intIn(0, 30 * 24 * 3600).default(3600), {
    wanted: `a whole number of seconds between 0 and ${30 * 24 * 3600}`,
    about: 'how long an old key secret works after a rotation',
  }),
  LOG_LEVEL: variable(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'), {
    wanted: 'one of fatal, error, warn, info, debug, trace, silent',
    about: 'pino level (`silent` to mute)',
  }),
  LOG_FORMAT: variable(z.enum(['pretty', 'json']).optional(), {
    wanted: 'pretty or json',
    about: '`pretty` (one readable line per record) or `json` (one JSON object per line)',
    defaultText: '`pretty` when stdout is a terminal, else `json`',
  }),
  SMTP_URL: variable(z.string().url().optional(), {
    wanted: 'a URL, e.g. smtp://user:password@host:587',
    about: 'platform mail transport; unset means a log transport',
    secret: true,
  }),
  SMTP_FROM: variable(z.string().min(3).default('Switchboard <no-reply@switchboard.local>'), {
    wanted: 'a sender of at least 3 characters, e.g. Switchboard <no-reply@example.com>',
    about: 'sender of platform mail',
  }),
  SPF_INCLUDE_HOST: variable(
    z
      .string()
      .regex(/^[a-z0-9_.-]+\.[a-z]{2,}$/i)
      .default('_spf.switchboard.email'),
    { wanted: 'a host name like spf.example.com', about: 'the host customers `include:` in their SPF record' },
  ),
  // About 28 hours of retries (docs/webhook-retries.md#retries-exhaustion-and-disabling): a delivery outlasts a deploy,
  // a broker restart or a night's outage of its receiver before it is exhausted.
  WEBHOOK_RETRY_DELAYS_MS: variable(
    retryDelays.default([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]),
    {
      wanted: 'milliseconds separated by commas, e.g. 30000,60000',
      about:
        'delay before each retry (±10 % jitter); its length is the number of retries. The default, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, spans about 28 hours',
    },
  ),
  WEBHOOK_TIMEOUT_MS: variable(intIn(100, 120_000).default(10_000), {
    wanted: ms(100, 120_000),
    about:
      'per-attempt timeout, from when a connection takes the request, and the same bound again for connecting ([ADR 0080](adr/0080-deliveries-per-job.md))',
  }),
  WEBHOOK_DISABLE_AFTER: variable(intIn(1, 10_000).default(20), {
    wanted: whole(1, 10_000),
    about: 'consecutive exhausted deliveries before a subscription is disabled',
  }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: variable(bool.default(false), {
    wanted: BOOL_WANTED,
    about: 'development and tests only: allows `http://` and private/loopback targets; logs a warning at start',
  }),
  WEBHOOK_RETENTION_DAYS: variable(intIn(1, 3650).default(30), {
    wanted: 'a whole number of days between 1 and 3650',
    about:
      'how long events, deliveries and attempts are kept; older ones answer 404 at once and their day partitions are dropped ([operations.md](operations.md#data-lifecycle))',
  }),
  WEBHOOK_SHARDS: variable(intIn(1, MAX_PARTITIONS).default(1), {
    wanted: whole(1, MAX_PARTITIONS),
    about:
      'delivery shards (queues), each under its own hash tag: on a Redis Cluster the number of masters, else 1. Queued deliveries of an earlier number are drained ([scaling.md](scaling.md#delivery-shards))',
  }),
  WEBHOOK_WORKER_SHARDS: variable(shardList(MAX_PARTITIONS).optional(), {
    wanted: `shard numbers or ranges separated by commas, e.g. 0,2 or 0-3, each below ${MAX_PARTITIONS}`,
    about:
      "the delivery shards this process's workers consume, each below `WEBHOOK_SHARDS`; every shard must be consumed by some process",
    defaultText: 'all',
  }),
  WEBHOOK_SWEEP_AFTER_MS: variable(intIn(0, 3600_000).default(10_000), {
    wanted: ms(0, 3600_000),
    about: 'a pending delivery this long past due whose job is gone is scheduled again by the sweep',
  }),
  WEBHOOK_BATCHING: variable(z.enum(['latency', 'balanced', 'throughput']).default('balanced'), {
    wanted: 'latency, balanced or throughput',
    about:
      'how deliveries share jobs and statements: less latency or less CPU per event ([the profiles](#delivery-batching))',
  }),
  QUEUE_CONCURRENCY: variable(namedNumbers(Object.keys(CONCURRENCY_DEFAULTS), 1).optional(), {
    wanted: `queue=number pairs separated by commas, each at least 1, of ${Object.keys(CONCURRENCY_DEFAULTS).join(', ')}`,
    about:
      'jobs in flight per worker process, per queue (per shard for `webhook-delivery`); the ones named replace their default',
    defaultText: pairs(CONCURRENCY_DEFAULTS),
  }),
  SCHEDULE_INTERVALS_MS: variable(namedNumbers(INTERVAL_NAMES, 100).optional(), {
    wanted: `name=milliseconds pairs separated by commas, each at least 100, of ${INTERVAL_NAMES.join(', ')}`,
    about:
      "how often each maintenance job runs, and each worker process's checks of its job schedulers and its workers ([operations.md](operations.md#jobs)); the ones named replace their default",
    defaultText: pairs({ ...SCHEDULE_DEFAULTS_MS, ...PROCESS_INTERVALS_MS }),
  }),
};

function pairs(values: Record<string, number>): string {
  return `\`${Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join(',')}\``;
}
