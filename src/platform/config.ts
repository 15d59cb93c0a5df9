import { isIP } from 'node:net';
import { relative, resolve } from 'node:path';
import { z } from 'zod';
import { randomSecret, readOrCreateDevFile } from './dev-files.js';

// The only module that reads process.env. Everything else receives a Config.

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const intIn = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** The most worker processes WORKERS may ask npm start for. */
export const MAX_WORKERS = 64;

const retryDelays = z
  .string()
  .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'expected a comma-separated list of milliseconds, e.g. 30000,60000')
  .transform((s) => s.split(',').map((v) => Number(v.trim())));

/** "a, b,,c" → ["a", "b", "c"]. */
const commaList = z.string().transform((s) =>
  s
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
);

// DNS servers for domain verification: "ip", "ip:port", "[ipv6]:port"; empty means the system resolvers.
const dnsServers = commaList.refine(
  (list) =>
    list.every((v) => {
      const m =
        /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(v) ?? /^([\d.]+)(?::(\d{1,5}))?$/.exec(v) ?? /^([0-9a-fA-F:]+)()$/.exec(v);
      return m !== null && isIP(m[1]!) !== 0 && (!m[2] || Number(m[2]) <= 65535);
    }),
  'expected a comma-separated list of IP[:port], e.g. 1.1.1.1,[2606:4700::1111]:53',
);

// Browser origins allowed on the MCP and OAuth endpoints besides PUBLIC_URL's: "https://a.example,http://localhost:1".
const originList = commaList
  .refine(
    (list) => list.every((v) => /^https?:\/\/[^/?#\s]+$/i.test(v) && URL.canParse(v)),
    'expected origins separated by commas, each scheme://host[:port] with no path, e.g. https://app.example.com',
  )
  .transform((list) => list.map((v) => new URL(v).origin));

// Redis Cluster: "host:port,host:port,…" (a few nodes are enough; the client discovers the others).
export interface RedisNode {
  host: string;
  port: number;
}
const redisNodes = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  )
  .refine(
    (list) =>
      list.length > 0 &&
      list.every((v) => {
        const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(v);
        return m !== null && Number(m[2]) >= 1 && Number(m[2]) <= 65535;
      }),
    'expected host:port pairs separated by commas, e.g. 10.0.0.1:6379,10.0.0.2:6379',
  )
  .transform((list): RedisNode[] =>
    list.map((v) => {
      const at = v.lastIndexOf(':');
      return { host: v.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(v.slice(at + 1)) };
    }),
  );

/** Redis's hash-tag rule: the text between the first "{" and the first "}" after it, when not empty, picks the slot. */
export function hashTagOf(prefix: string): string | null {
  const open = prefix.indexOf('{');
  const close = open < 0 ? -1 : prefix.indexOf('}', open + 1);
  return close > open + 1 ? prefix.slice(open + 1, close) : null;
}

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

// Worker concurrency per queue (QUEUE_CONCURRENCY overrides; webhook-delivery also follows WEBHOOK_CONCURRENCY).
const CONCURRENCY_DEFAULTS = { 'webhook-fanout': 50, 'message-send': 20, 'agent-runs': 20, maintenance: 5 } as const;

/** "name=ms,name=ms" where every name is one of `names`. */
const namedIntervals = (names: readonly string[], min: number) =>
  z
    .string()
    .regex(
      /^\s*[a-z-]+\s*=\s*\d+(\s*,\s*[a-z-]+\s*=\s*\d+)*\s*$/,
      'expected name=number pairs, e.g. relay-outbox=30000',
    )
    .transform((s) =>
      Object.fromEntries(
        s
          .split(',')
          .map((pair) => pair.split('=').map((v) => v.trim()) as [string, string])
          .map(([k, v]) => [k, Number(v)]),
      ),
    )
    .refine((m) => Object.keys(m).every((k) => names.includes(k)), `names must be among ${names.join(', ')}`)
    .refine((m) => Object.values(m).every((v) => v >= min), `values must be at least ${min}`);

/** Most delivery shards WEBHOOK_PARTITIONS may ask for. */
export const MAX_PARTITIONS = 256;

// Delivery shards a worker process consumes: "0,2", "0-3", "1,4-6" (docs/scaling.md#delivery-shards).
const partitionList = z
  .string()
  .regex(
    /^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/,
    'expected partition numbers or ranges separated by commas, e.g. 0,2 or 0-3',
  )
  .transform((s) =>
    s.split(',').map((part) => part.split('-').map((v) => Number(v.trim())) as [number] | [number, number]),
  )
  .refine((parts) => parts.every(([a, b]) => b === undefined || a <= b), 'expected ranges low-high, e.g. 0-3')
  .refine((parts) => parts.flat().every((v) => v < MAX_PARTITIONS), `partitions are numbered 0-${MAX_PARTITIONS - 1}`)
  .transform((parts) => {
    const all = parts.flatMap(([a, b = a]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));
    return [...new Set(all)].sort((x, y) => x - y);
  });

const HOST_EXPECTED = 'expected an IP address to listen on, e.g. 0.0.0.0 (every interface) or 127.0.0.1';
const PORT_EXPECTED = 'expected a port number (1-65535)';

// Traces (docs/tracing.md): the standard OTEL_* variables the service validates itself; the SDK reads these and
// the others it knows (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES …) from the environment as usual.
const otlpUrl = z
  .string()
  .refine((v) => /^https?:\/\//i.test(v) && URL.canParse(v), 'expected an http(s) URL, e.g. http://collector:4318');
const otlpProtocol = z.enum(['http/protobuf', 'http/json'], {
  message: "expected http/protobuf or http/json (grpc is not built in: use the collector's HTTP port, 4318)",
});
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
const tracingSchema = z.object({
  OTEL_SDK_DISABLED: bool.optional(),
  OTEL_TRACES_EXPORTER: z
    .enum(['otlp', 'none'], { message: 'expected otlp or none (no other exporter is built in)' })
    .optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl.optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpUrl.optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol.optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol.optional(),
  OTEL_EXPORTER_OTLP_TIMEOUT: intIn(1, 600_000).optional(),
  OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: intIn(1, 600_000).optional(),
  OTEL_SERVICE_NAME: z.string().trim().min(1).max(200).optional(),
  OTEL_TRACES_SAMPLER: z.enum(SAMPLERS, { message: `expected one of ${SAMPLERS.join(', ')}` }).optional(),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  OTEL_BSP_MAX_QUEUE_SIZE: intIn(1, 1_000_000).optional(),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: intIn(1, 1_000_000).optional(),
  OTEL_BSP_SCHEDULE_DELAY: intIn(0, 600_000).optional(),
  OTEL_BSP_EXPORT_TIMEOUT: intIn(1, 600_000).optional(),
});

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: intIn(0, 65535).default(3000),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  REDIS_CLUSTER_NODES: redisNodes.optional(),
  BULLMQ_PREFIX: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[^:\s]+$/, 'must not contain ":" or spaces')
    .default('sb'),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  OPS_USERNAME: z.string().min(1).optional(),
  OPS_PASSWORD: z.string().min(1).optional(),
  WEBHOOK_RETRY_DELAYS_MS: retryDelays.default([30000, 60000, 120000, 240000, 480000]),
  WEBHOOK_TIMEOUT_MS: intIn(100, 120_000).default(10_000),
  WEBHOOK_DISABLE_AFTER: intIn(1, 10_000).default(20),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool.default(false),
  WEBHOOK_CONCURRENCY: intIn(1, 1000).default(50),
  WEBHOOK_BATCH_WINDOW_MS: intIn(0, 50).default(0),
  WEBHOOK_RECORD_WINDOW_MS: intIn(0, 1000).default(20),
  WEBHOOK_DELIVERIES_PER_JOB: intIn(1, 50).default(10),
  WEBHOOK_ARM_WINDOW_MS: intIn(0, 50).default(5),
  WEBHOOK_RELAY_AFTER_MS: intIn(0, 3600_000).default(10_000),
  WEBHOOK_RETENTION_DAYS: intIn(1, 3650).default(30),
  WEBHOOK_PARTITIONS: intIn(1, MAX_PARTITIONS).default(1),
  WORKER_PARTITIONS: partitionList.optional(),
  WEBHOOK_STREAMS_PER_ACCOUNT: intIn(1, 1000).default(5),
  WEBHOOK_STREAM_IN_FLIGHT: intIn(1, 1000).default(10),
  SCHEDULE_INTERVALS_MS: namedIntervals(Object.keys(SCHEDULE_DEFAULTS_MS), 100).optional(),
  SCHEDULE_CHECK_MS: intIn(100, 3600_000).default(30_000),
  WORKER_STUCK_AFTER_MS: intIn(100, 3600_000).default(10_000),
  QUEUE_CONCURRENCY: namedIntervals([...Object.keys(CONCURRENCY_DEFAULTS), 'webhook-delivery'], 1).optional(),
  REQUEUE_AFTER_MS: intIn(0, 24 * 3600_000).default(60_000),
  RATE_LIMIT_WINDOW_MS: intIn(1000, 24 * 3600_000).default(60_000),
  KEY_ROTATION_GRACE_SECONDS: intIn(0, 30 * 24 * 3600).default(3600),
  TRUST_PROXY_HOPS: intIn(0, 10).default(0),
  SIGNUP_ENABLED: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  SMTP_URL: z.string().url().optional(),
  SMTP_FROM: z.string().min(3).default('Switchboard <no-reply@switchboard.local>'),
  AGENT_RUNTIME_TIMEOUT_MS: intIn(100, 600_000).default(30_000),
  DNS_SERVERS: dnsServers.optional(),
  SPF_INCLUDE_HOST: z
    .string()
    .regex(/^[a-z0-9_.-]+\.[a-z]{2,}$/i, 'expected a host name like spf.example.com')
    .default('_spf.switchboard.email'),
  // OAuth for MCP clients: the origin clients reach the API at (the issuer and every resource URL derive from it).
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/?#\s]+\/?$/, 'expected an origin like https://api.example.com (no path, query or fragment)')
    .transform((s) => s.replace(/\/$/, ''))
    .optional(),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: intIn(60, 24 * 3600).default(3600),
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: intIn(3600, 365 * 24 * 3600).default(30 * 24 * 3600),
  OAUTH_GRANT_TTL_SECONDS: intIn(3600, 5 * 365 * 24 * 3600).default(90 * 24 * 3600),
  OAUTH_CLIENT_ID_METADATA_DOCUMENTS: bool.default(true),
  // Idempotency keys (docs/api-keys.md#idempotent-requests): how long a request in flight holds its key before
  // another may take it over.
  IDEMPOTENCY_LOCK_MS: intIn(1000, 3600_000).default(60_000),
  // Running it in production (docs/production.md): the address the API (and a worker's
  // metrics port) listens on, and the port a worker process serves /metrics and /healthz on.
  HOST: z
    .string()
    .refine((h) => isIP(h) !== 0 || h === 'localhost', HOST_EXPECTED)
    .optional(),
  METRICS_PORT: z.coerce
    .number({ message: PORT_EXPECTED })
    .int(PORT_EXPECTED)
    .min(1, PORT_EXPECTED)
    .max(65535, PORT_EXPECTED)
    .optional(),
  // npm start (docs/processes.md): worker processes beside the API process; 0 runs everything in one process.
  WORKERS: z
    .string()
    .trim()
    .refine(
      (v) => v === 'auto' || (/^\d+$/.test(v) && Number(v) <= MAX_WORKERS),
      `expected auto or an integer 0..${MAX_WORKERS}`,
    )
    .transform((v): 'auto' | number => (v === 'auto' ? 'auto' : Number(v)))
    .optional(),
  // How long SIGTERM/SIGINT waits for requests and jobs in flight before the process exits anyway.
  SHUTDOWN_TIMEOUT_MS: intIn(100, 600_000).default(25_000),
  // MCP clients and sign-in (docs/mcp.md): browser origins besides PUBLIC_URL's allowed on the MCP and OAuth endpoints.
  MCP_ALLOWED_ORIGINS: originList.optional(),
  // Sign-in attempts (login, signup, the OAuth sign-in form) per client IP, and per email, in each window.
  SIGN_IN_LIMIT_PER_IP: intIn(1, 1_000_000).default(200),
  SIGN_IN_LIMIT_PER_EMAIL: intIn(1, 1_000_000).default(10),
  SIGN_IN_WINDOW_MS: intIn(1000, 24 * 3600_000).default(15 * 60_000),
  ...tracingSchema.shape,
});

export type Env = Partial<Record<keyof typeof envSchema.shape, string>>;
/** Every variable read; .env.example lists each with its default (test/unit/config.test.ts holds it to that). */
export const ENV_NAMES = Object.keys(envSchema.shape) as Array<keyof Env>;

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/switchboard';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
/** The operator user name written into a generated credentials file. */
export const GENERATED_OPS_USERNAME = 'ops';

export interface LoadOptions {
  /** Where development files are generated (app secret, ops credentials); `.data` under the working directory. */
  dataDir?: string;
  /** Whether stdout is a terminal: logs are pretty there and JSON elsewhere, unless LOG_FORMAT says. */
  terminal?: boolean;
}

/** Parses the environment against `schema`; the first bad variable stops start-up with one line naming it. */
function parseEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.infer<S> {
  // Empty strings mean "unset", as they do in most dotenv files and compose files.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${String(issue.path[0])}: ${issue.message}`);
  }
  return parsed.data;
}

/** OTLP/HTTP default: the SDK's own timeout is 10 s; a collector that does not answer is given up on sooner. */
const OTLP_TIMEOUT_MS = 5000;

/**
 * Traces, read on their own by src/instrumentation.ts before anything else is loaded: null (off, nothing of the
 * SDK loaded) unless an OTLP endpoint is set and OTEL_SDK_DISABLED is not true (docs/tracing.md).
 */
export function loadTracingConfig(env: Record<string, string | undefined> = process.env) {
  return tracingFrom(parseEnv(tracingSchema, env));
}

function tracingFrom(e: z.infer<typeof tracingSchema>) {
  if (e.OTEL_SDK_DISABLED || e.OTEL_TRACES_EXPORTER === 'none') return null;
  // The signal-specific endpoint is taken as it is; the generic one gets /v1/traces appended (the OTLP spec's rule).
  const url =
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (e.OTEL_EXPORTER_OTLP_ENDPOINT && `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`);
  if (!url) return null;
  return {
    url,
    protocol: e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? e.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
    timeoutMs: e.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? e.OTEL_EXPORTER_OTLP_TIMEOUT ?? OTLP_TIMEOUT_MS,
    /** null: a name by role (switchboard-api, switchboard-worker, switchboard). */
    serviceName: e.OTEL_SERVICE_NAME ?? null,
    // The span queue's bound: what is ended and not yet exported. Past it spans are dropped, and counted.
    maxQueueSize: e.OTEL_BSP_MAX_QUEUE_SIZE ?? 2048,
  };
}

export type TracingConfig = NonNullable<ReturnType<typeof loadTracingConfig>>;

export function loadConfig(env: Record<string, string | undefined> = process.env, opts: LoadOptions = {}) {
  const dataDir = opts.dataDir ?? resolve('.data');
  const e = parseEnv(envSchema, env);
  if (e.NODE_ENV === 'production' && !e.APP_SECRET) {
    throw new ConfigError('APP_SECRET: required when NODE_ENV=production (at least 32 characters)');
  }
  // On a cluster every key the service writes must hash to one slot (BullMQ's scripts and our MGET/MULTI span keys).
  if (e.REDIS_CLUSTER_NODES && e.REDIS_URL) {
    throw new ConfigError('REDIS_CLUSTER_NODES: set either REDIS_CLUSTER_NODES or REDIS_URL, not both');
  }
  if (e.REDIS_CLUSTER_NODES && hashTagOf(e.BULLMQ_PREFIX) === null) {
    throw new ConfigError(
      `BULLMQ_PREFIX: must be in {…} hash-tag form (e.g. {${e.BULLMQ_PREFIX.replace(/[{}]/g, '') || 'sb'}}) when REDIS_CLUSTER_NODES is set, so that every key is in one cluster slot`,
    );
  }
  const beyond = e.WORKER_PARTITIONS?.find((p) => p >= e.WEBHOOK_PARTITIONS);
  if (beyond !== undefined) {
    throw new ConfigError(
      `WORKER_PARTITIONS: partition ${beyond} does not exist; WEBHOOK_PARTITIONS=${e.WEBHOOK_PARTITIONS} has partitions 0-${e.WEBHOOK_PARTITIONS - 1}`,
    );
  }
  if (Boolean(e.OPS_USERNAME) !== Boolean(e.OPS_PASSWORD)) {
    throw new ConfigError('OPS_USERNAME/OPS_PASSWORD: set both or neither');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    dataDir,
    database: { url: e.DATABASE_URL ?? DEFAULT_DATABASE_URL, explicit: e.DATABASE_URL !== undefined },
    // With clusterNodes set, url is not used: connect through src/platform/redis.ts, which takes this whole object.
    redis: {
      url: e.REDIS_URL ?? DEFAULT_REDIS_URL,
      explicit: e.REDIS_URL !== undefined || e.REDIS_CLUSTER_NODES !== undefined,
      clusterNodes: e.REDIS_CLUSTER_NODES ?? null,
    },
    bullmqPrefix: e.BULLMQ_PREFIX,
    appSecret: e.APP_SECRET ?? readOrCreateDevFile(resolve(dataDir, 'app-secret'), () => randomSecret()),
    // Given, generated on a development machine so that bull-board and /metrics work on the first run, or off
    // (404) in production. `file` is where generated credentials are: the banner names it, never the password.
    ops:
      e.OPS_USERNAME && e.OPS_PASSWORD
        ? { username: e.OPS_USERNAME, password: e.OPS_PASSWORD, file: null }
        : e.NODE_ENV === 'production'
          ? null
          : readOrCreateOpsCredentials(dataDir),
    logFormat: e.LOG_FORMAT ?? ((opts.terminal ?? Boolean(process.stdout.isTTY)) ? 'pretty' : 'json'),
    webhooks: {
      retryDelaysMs: e.WEBHOOK_RETRY_DELAYS_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      disableAfter: e.WEBHOOK_DISABLE_AFTER,
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      concurrency: e.WEBHOOK_CONCURRENCY,
      // How long a worker's first delivery statement (load, record) waits for others to share its round trip.
      batchWindowMs: e.WEBHOOK_BATCH_WINDOW_MS,
      // How long an unordered delivery's attempt record waits for others (nobody but its own job waits on it).
      recordWindowMs: e.WEBHOOK_RECORD_WINDOW_MS,
      // First attempts armed together (an event's fan-out, a transaction's events) share one job, this many at most.
      deliveriesPerJob: e.WEBHOOK_DELIVERIES_PER_JOB,
      // How long the first commit's deliveries wait for those of other commits to share their jobs.
      armWindowMs: e.WEBHOOK_ARM_WINDOW_MS,
      // A pending delivery this long past due whose job is gone (failed, removed, lost with Redis) is scheduled again.
      relayAfterMs: e.WEBHOOK_RELAY_AFTER_MS,
      // Events, deliveries and attempts older than this are gone: hidden at once, their day partitions dropped.
      retentionDays: e.WEBHOOK_RETENTION_DAYS,
      // Stream destinations (`switchboard listen`): open streams per account, and deliveries handed to one
      // stream and not yet reported back (docs/adr/0054-stream-destinations.md).
      streamsPerAccount: e.WEBHOOK_STREAMS_PER_ACCOUNT,
      streamInFlight: e.WEBHOOK_STREAM_IN_FLIGHT,
      // K delivery queues, each under its own hash tag, and the ones this process's workers consume (all by
      // default); workers also drain partitions of an earlier K (docs/scaling.md#delivery-shards).
      partitions: e.WEBHOOK_PARTITIONS,
      workerPartitions: e.WORKER_PARTITIONS ?? Array.from({ length: e.WEBHOOK_PARTITIONS }, (_, i) => i),
    },
    // Every worker process checks this often that each job scheduler exists, and re-creates it if Redis lost it.
    schedules: {
      everyMs: { ...SCHEDULE_DEFAULTS_MS, ...e.SCHEDULE_INTERVALS_MS } as Record<ScheduleId, number>,
      checkMs: e.SCHEDULE_CHECK_MS,
    },
    // A worker with room that takes no job this long while one is ready is replaced (workers/watchdog.ts).
    workerStuckAfterMs: e.WORKER_STUCK_AFTER_MS,
    queueConcurrency: {
      ...CONCURRENCY_DEFAULTS,
      'webhook-delivery': e.WEBHOOK_CONCURRENCY,
      ...e.QUEUE_CONCURRENCY,
    } as Record<string, number>,
    // Runs and messages still queued this long after commit are enqueued again (their after-commit enqueue failed).
    requeueAfterMs: e.REQUEUE_AFTER_MS,
    keys: { rotationGraceSeconds: e.KEY_ROTATION_GRACE_SECONDS },
    trustProxyHops: e.TRUST_PROXY_HOPS,
    signupEnabled: e.SIGNUP_ENABLED,
    logLevel: e.LOG_LEVEL,
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.SMTP_FROM },
    // HTTP agent runtimes (often a language model) answer slower than webhook receivers.
    runtime: { timeoutMs: e.AGENT_RUNTIME_TIMEOUT_MS },
    // Sending-domain verification: TXT lookups through these servers (null: the system's).
    dns: { servers: e.DNS_SERVERS?.length ? e.DNS_SERVERS : null, timeoutMs: 2000, tries: 2 },
    domains: { spfInclude: e.SPF_INCLUDE_HOST.toLowerCase() },
    sessions: { ttlMs: 12 * 3600 * 1000 },
    http: { maxBodyBytes: 1024 * 1024 },
    // Prices in credits, one table (docs/adr/0012-prices.md).
    prices: { email: 1, sms: 2, agentTrigger: 5 },
    signupCredits: 1000,
    // Money-spending requests per window for uncapped keys, by plan.
    rateLimits: { free: 60, pro: 600 } as Record<string, number>,
    rateLimitWindowMs: e.RATE_LIMIT_WINDOW_MS,
    // OAuth for MCP clients. publicUrl null: the address the server listens on (development and tests).
    oauth: {
      publicUrl: e.PUBLIC_URL ?? null,
      accessTokenTtlSeconds: e.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: e.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
      grantTtlSeconds: e.OAUTH_GRANT_TTL_SECONDS,
      clientIdMetadataDocuments: e.OAUTH_CLIENT_ID_METADATA_DOCUMENTS,
      // Login and consent forms are a few fields; anything larger is refused before it is read.
      maxFormBytes: 8 * 1024,
    },
    // Idempotency-Key: a completed request is replayed for 24 h (then swept); an in-flight one holds its key for
    // lockMs, after which a process that died with it no longer blocks a retry.
    idempotency: { ttlMs: 24 * 3600_000, lockMs: e.IDEMPOTENCY_LOCK_MS },
    // Every interface in production (a container's port is published from outside it), this machine only in
    // development, where an API with generated credentials should not be reachable from the network.
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    // Worker processes: /metrics (ops credentials) and /healthz on this port; null: none.
    metricsPort: e.METRICS_PORT ?? null,
    // npm start's worker processes ('auto': one per spare core, at least one; 0: no child processes).
    workers: e.WORKERS ?? 'auto',
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    // MCP clients and sign-in. A request to an MCP or OAuth endpoint whose Origin is neither PUBLIC_URL's
    // nor listed here is refused (DNS rebinding, docs/mcp.md).
    mcp: { allowedOrigins: e.MCP_ALLOWED_ORIGINS ?? [] },
    // Every attempt counts against its IP; against its email only until it succeeds (src/auth/sign-in-limits.ts).
    signIn: { perIp: e.SIGN_IN_LIMIT_PER_IP, perEmail: e.SIGN_IN_LIMIT_PER_EMAIL, windowMs: e.SIGN_IN_WINDOW_MS },
    // Traces (docs/tracing.md): started by src/instrumentation.ts; null when no OTLP endpoint is set.
    tracing: tracingFrom(e),
  };
}

/**
 * The environment of a child process of npm start: this process's environment with `overrides` on top (the
 * database and Redis the parent resolved, so that children never start development fallbacks of their own).
 */
export function childProcessEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

/** `.data/ops-credentials` holds one line, user:password, the form `curl -u "$(cat .data/ops-credentials)"` takes. */
function readOrCreateOpsCredentials(dataDir: string) {
  const file = resolve(dataDir, 'ops-credentials');
  const line = readOrCreateDevFile(file, () => `${GENERATED_OPS_USERNAME}:${randomSecret(24)}`);
  const sep = line.indexOf(':');
  if (sep < 1 || sep === line.length - 1 || line.includes('\n')) {
    throw new ConfigError(
      `${relative(process.cwd(), file)}: expected one line user:password (delete the file to generate new credentials)`,
    );
  }
  return { username: line.slice(0, sep), password: line.slice(sep + 1), file };
}
