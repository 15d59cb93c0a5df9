import { relative, resolve } from 'node:path';
import { z } from 'zod';
import { randomSecret, readOrCreateDevFile } from './dev-files.js';
import { hashTagOf } from './config-parsers.js';
import { OTLP_TIMEOUT_MS, TRACING_VARIABLES } from './config-otel.js';
import {
  BATCHING_PROFILES,
  CONCURRENCY_DEFAULTS,
  MCP_WEBHOOK_DEFAULTS,
  PROCESS_INTERVALS_MS,
  SCHEDULE_DEFAULTS_MS,
  VARIABLES,
  type ScheduleId,
  type VariableDoc,
} from './config-variables.js';

// With config-child-env.ts (the environment npm start hands its children), the only module that reads
// process.env. Everything else receives a Config. The variables, what each must be
// and what it is for are in src/platform/config-variables.ts (docs/configuration.md is written from them).

export { hashTagOf, type RedisNode } from './config-parsers.js';
export { MAX_PARTITIONS, MAX_WORKERS, SCHEDULE_DEFAULTS_MS, type ScheduleId } from './config-variables.js';

const schemaOf = <V extends Record<string, { schema: z.ZodType }>>(vars: V) =>
  z.object(
    Object.fromEntries(Object.entries(vars).map(([name, v]) => [name, v.schema])) as { [K in keyof V]: V[K]['schema'] },
  );
const tracingSchema = schemaOf(TRACING_VARIABLES);
const envSchema = schemaOf({ ...VARIABLES, ...TRACING_VARIABLES });
const DOCS: Record<string, VariableDoc> = Object.fromEntries(
  Object.entries({ ...VARIABLES, ...TRACING_VARIABLES }).map(([name, v]) => [name, v.doc]),
);

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

const isSet = (v: string | undefined): v is string => v !== undefined && v !== '';

/** "NAME must be what is wanted, got what was given": a value is named unless it may be a secret. */
function badValue(name: string, value: string | undefined, wanted: string): string {
  const doc = DOCS[name];
  const got =
    value === undefined
      ? ''
      : doc?.secret
        ? `, got ${value.length} characters (not shown)`
        : `, got ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}`;
  return `${name} must be ${wanted}${got}`;
}

/** Parses the environment against `schema`; the first bad variable stops start-up with one line naming it. */
function parseEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.infer<S> {
  // Empty strings mean "unset", as they do in most dotenv files and compose files. A variable the service does not
  // read is ignored, as every other program in the environment's way ignores it.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => isSet(v)));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    const wanted = DOCS[name]?.wanted ?? issue.message;
    throw new ConfigError(badValue(name, cleaned[name], wanted));
  }
  return parsed.data;
}

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
    throw new ConfigError('APP_SECRET must be set when NODE_ENV=production: at least 32 characters');
  }
  // On a cluster every key the service writes must hash to one slot (BullMQ's scripts and our MGET/MULTI span keys).
  if (e.REDIS_CLUSTER_NODES && e.REDIS_URL) {
    throw new ConfigError('REDIS_CLUSTER_NODES must be set instead of REDIS_URL: set either, not both');
  }
  if (e.REDIS_CLUSTER_NODES && hashTagOf(e.BULLMQ_PREFIX) === null) {
    throw new ConfigError(
      `BULLMQ_PREFIX must be in {…} hash-tag form (e.g. {${e.BULLMQ_PREFIX.replace(/[{}]/g, '') || 'sb'}}) when REDIS_CLUSTER_NODES is set, so that every key is in one cluster slot, got "${e.BULLMQ_PREFIX}"`,
    );
  }
  const shards = e.WEBHOOK_SHARDS;
  const beyond = e.WEBHOOK_WORKER_SHARDS?.find((p) => p >= shards);
  if (beyond !== undefined) {
    const wanted = `shards that exist: WEBHOOK_SHARDS=${shards} has shards 0-${shards - 1}`;
    throw new ConfigError(`${badValue('WEBHOOK_WORKER_SHARDS', undefined, wanted)}, got shard ${beyond}`);
  }
  if (Boolean(e.OPS_USERNAME) !== Boolean(e.OPS_PASSWORD)) {
    throw new ConfigError('OPS_USERNAME and OPS_PASSWORD must be set both or neither');
  }
  const queueConcurrency: Record<string, number> = { ...CONCURRENCY_DEFAULTS, ...e.QUEUE_CONCURRENCY };
  const deliveryConcurrency = queueConcurrency['webhook-delivery']!;
  const intervals: Record<string, number> = {
    ...SCHEDULE_DEFAULTS_MS,
    ...PROCESS_INTERVALS_MS,
    ...e.SCHEDULE_INTERVALS_MS,
  };
  const scheduleEveryMs = Object.fromEntries(
    Object.keys(SCHEDULE_DEFAULTS_MS).map((id) => [id, intervals[id]!]),
  ) as Record<ScheduleId, number>;
  const batching = BATCHING_PROFILES[e.WEBHOOK_BATCHING];
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
      // The webhook-delivery queue's concurrency (QUEUE_CONCURRENCY), which stream and record limits are sized by.
      concurrency: deliveryConcurrency,
      // WEBHOOK_BATCHING's profile (src/platform/config-variables.ts): how long a worker's first delivery statement
      // (load, record) waits for others to share its round trip; how long an unordered delivery's attempt record
      // waits for others (nobody but its own job waits on it); how many first attempts scheduled together share
      // one job; how long the first commit's deliveries wait for those of other commits to share their jobs.
      batchWindowMs: batching.batchWindowMs,
      recordWindowMs: batching.recordWindowMs,
      deliveriesPerJob: batching.deliveriesPerJob,
      armWindowMs: batching.armWindowMs,
      // A pending delivery this long past due whose job is gone (failed, removed, lost with Redis) is scheduled
      // again by the sweep.
      sweepAfterMs: e.WEBHOOK_SWEEP_AFTER_MS,
      // Events, deliveries and attempts older than this are gone: hidden at once, their day partitions dropped.
      retentionDays: e.WEBHOOK_RETENTION_DAYS,
      // Stream destinations (`switchboard listen`): open streams per account, and deliveries handed to one
      // stream and not yet reported back (docs/adr/0054-stream-destinations.md).
      // A stream may hold a fifth of a worker's delivery slots: one stalled listener cannot take the rest.
      streamsPerAccount: 5,
      streamInFlight: Math.max(1, Math.ceil(deliveryConcurrency / 5)),
      // K delivery shards, each under its own hash tag, and the ones this process's workers consume (all by
      // default); workers also drain shards of an earlier K (docs/scaling.md#delivery-shards).
      shards,
      workerShards: e.WEBHOOK_WORKER_SHARDS ?? Array.from({ length: shards }, (_, i) => i),
    },
    // Every worker process checks this often that each job scheduler exists, and re-creates it if Redis lost it.
    schedules: {
      everyMs: scheduleEveryMs,
      checkMs: intervals['check-schedulers']!,
    },
    // A worker with room that takes no job this long while one is ready is replaced (workers/watchdog.ts).
    workerStuckAfterMs: intervals['watch-workers']!,
    queueConcurrency,
    // Runs and messages still queued this long after commit are enqueued again (their after-commit enqueue failed).
    requeueAfterMs: 60_000,
    keys: { rotationGraceSeconds: e.KEY_ROTATION_GRACE_SECONDS },
    trustProxyHops: e.TRUST_PROXY_HOPS,
    signupEnabled: e.SIGNUP_ENABLED,
    logLevel: e.LOG_LEVEL,
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.SMTP_FROM },
    // HTTP agent runtimes (often a language model) answer slower than webhook receivers.
    runtime: { timeoutMs: 30_000 },
    // Sending-domain verification: TXT lookups through these servers (null: the system's).
    dns: { servers: null as string[] | null, timeoutMs: 2000, tries: 2 },
    domains: { spfInclude: e.SPF_INCLUDE_HOST.toLowerCase() },
    sessions: { ttlMs: 12 * 3600 * 1000 },
    http: { maxBodyBytes: 1024 * 1024 },
    // Prices in credits, one table (docs/adr/0012-prices.md).
    prices: { email: 1, sms: 2, agentTrigger: 5 },
    signupCredits: 1000,
    // Money-spending requests per minute for uncapped keys, by plan.
    rateLimits: { free: 60, pro: 600 } as Record<string, number>,
    rateLimitWindowMs: 60_000,
    // OAuth for MCP clients. publicUrl null: the address the server listens on (development and tests).
    oauth: {
      publicUrl: e.PUBLIC_URL ?? null,
      // An access token lasts an hour; each use of a refresh token rotates it; after 90 days the person consents
      // again. `https://` client ids are fetched through the same address rules as webhooks (docs/mcp.md).
      accessTokenTtlSeconds: 3600,
      refreshTokenTtlSeconds: 30 * 24 * 3600,
      grantTtlSeconds: 90 * 24 * 3600,
      clientIdMetadataDocuments: true,
      // Login and consent forms are a few fields; anything larger is refused before it is read.
      maxFormBytes: 8 * 1024,
    },
    // Idempotency-Key: a completed request is replayed for 24 h (then swept); an in-flight one holds its key for as
    // long as its process lives (src/idempotency/claim-holder.ts).
    idempotency: { ttlMs: 24 * 3600_000 },
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
    mcp: {
      allowedOrigins: e.MCP_ALLOWED_ORIGINS ?? [],
      // MCP events webhook mode (docs/mcp-events.md#webhook-mode): the TTL grant's default, floor and ceiling, whether
      // no expiry may be granted, and the live subscriptions one principal may hold.
      webhook: mcpWebhookLimits(e.MCP_WEBHOOK_LIMITS),
      // MCP Events (docs/mcp-events.md#limits): fixed values, not variables (the service reads few); tests tune
      // them. The long poll's default and cap, a batch's size, the stream's heartbeat (the sketch wants at most
      // 30 s), and the open streams one credential may hold across every web process.
      events: { pollTimeoutMs: 25_000, maxEvents: 100, heartbeatMs: 15_000, streamsPerCredential: 50 },
    },
    // Every attempt counts against its IP; against its email only until it succeeds (src/auth/sign-in-limits.ts).
    signIn: { perIp: e.SIGN_IN_LIMITS?.ip ?? 200, perEmail: e.SIGN_IN_LIMITS?.email ?? 10, windowMs: 15 * 60_000 },
    // Traces (docs/tracing.md): started by src/instrumentation.ts; null when no OTLP endpoint is set.
    tracing: tracingFrom(e),
  };
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

/** MCP_WEBHOOK_LIMITS over its defaults: the floor is at most the ceiling, the default TTL between them. */
function mcpWebhookLimits(given: Record<string, number> | undefined) {
  const v = { ...MCP_WEBHOOK_DEFAULTS, ...given };
  const ttlMaxMs = Math.max(1000, v['max-ttl-ms']);
  const ttlMinMs = Math.min(Math.max(1000, v['min-ttl-ms']), ttlMaxMs);
  return {
    ttlDefaultMs: Math.min(Math.max(v['ttl-ms'], ttlMinMs), ttlMaxMs),
    ttlMinMs,
    ttlMaxMs,
    limit: Math.max(1, v['per-principal']),
    allowNoExpiry: v['no-expiry'] > 0,
  };
}
