import { BATCHING_PROFILES } from './config-variables.js';

// Variables the service read once and reads no more, or reads under another name. A deprecated name still works
// and says once at start what replaces it; a retired one is ignored and says so once, so that a forgotten line in
// an environment file never stops a start. docs/configuration.md lists both (scripts/docs-config.ts).

export interface Deprecated {
  /** The variable that replaces it. */
  now: string;
  /** The old value as the new variable takes it, for a name that became one entry of a list. */
  as?: (value: string) => string;
}

export const DEPRECATED: Record<string, Deprecated> = {
  WEBHOOK_PARTITIONS: { now: 'WEBHOOK_SHARDS' },
  WORKER_PARTITIONS: { now: 'WEBHOOK_WORKER_SHARDS' },
  WEBHOOK_RELAY_AFTER_MS: { now: 'WEBHOOK_SWEEP_AFTER_MS' },
  WEBHOOK_CONCURRENCY: { now: 'QUEUE_CONCURRENCY', as: (v) => `webhook-delivery=${v}` },
  SCHEDULE_CHECK_MS: { now: 'SCHEDULE_INTERVALS_MS', as: (v) => `check-schedulers=${v}` },
  WORKER_STUCK_AFTER_MS: { now: 'SCHEDULE_INTERVALS_MS', as: (v) => `watch-workers=${v}` },
  SIGN_IN_LIMIT_PER_IP: { now: 'SIGN_IN_LIMITS', as: (v) => `ip=${v}` },
  SIGN_IN_LIMIT_PER_EMAIL: { now: 'SIGN_IN_LIMITS', as: (v) => `email=${v}` },
};

/** The values the retired variables' settings keep, read by src/platform/config.ts (reasons below). */
export const FIXED = {
  streamsPerAccount: 5,
  /** A stream may hold this share of a worker's delivery slots. */
  streamSlotShare: 1 / 5,
  requeueAfterMs: 60_000,
  rateLimitWindowMs: 60_000,
  agentRuntimeTimeoutMs: 30_000,
  oauth: {
    accessTokenTtlSeconds: 3600,
    refreshTokenTtlSeconds: 30 * 24 * 3600,
    grantTtlSeconds: 90 * 24 * 3600,
    clientIdMetadataDocuments: true,
  },
  signIn: { perIp: 200, perEmail: 10, windowMs: 15 * 60_000 },
};

const BATCHING = 'set by `WEBHOOK_BATCHING`';
const { balanced } = BATCHING_PROFILES;

/**
 * Settings that are fixed values now, in src/platform/config.ts: each a number nobody but a test or a benchmark
 * changed, or one that follows from another setting. `value` is what the service uses.
 */
export const RETIRED: Record<string, { value: string; why: string }> = {
  WEBHOOK_BATCH_WINDOW_MS: { value: `${balanced.batchWindowMs} (balanced)`, why: BATCHING },
  WEBHOOK_RECORD_WINDOW_MS: { value: `${balanced.recordWindowMs} (balanced)`, why: BATCHING },
  WEBHOOK_DELIVERIES_PER_JOB: { value: `${balanced.deliveriesPerJob} (balanced)`, why: BATCHING },
  WEBHOOK_ARM_WINDOW_MS: { value: `${balanced.armWindowMs} (balanced)`, why: BATCHING },
  WEBHOOK_STREAM_IN_FLIGHT: {
    value: 'a fifth of the `webhook-delivery` concurrency, at least 1 (10)',
    why: "one stalled listener holds at most a fifth of a worker's delivery slots",
  },
  WEBHOOK_STREAMS_PER_ACCOUNT: {
    value: String(FIXED.streamsPerAccount),
    why: 'open `switchboard listen` sessions per account, a development tool',
  },
  REQUEUE_AFTER_MS: {
    value: String(FIXED.requeueAfterMs),
    why: 'runs and messages still queued a minute after commit are enqueued again (their after-commit enqueue failed)',
  },
  RATE_LIMIT_WINDOW_MS: {
    value: String(FIXED.rateLimitWindowMs),
    why: 'the plan rate limits are per minute (free 60, pro 600)',
  },
  AGENT_RUNTIME_TIMEOUT_MS: {
    value: String(FIXED.agentRuntimeTimeoutMs),
    why: 'per call of an HTTP agent runtime, slower than a webhook receiver (often a language model)',
  },
  IDEMPOTENCY_LOCK_MS: {
    value: 'none',
    why: "a request in flight holds its `Idempotency-Key` as long as its process lives; a retry takes over a dead process's key at once",
  },
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: {
    value: String(FIXED.oauth.accessTokenTtlSeconds),
    why: 'an OAuth access token lasts an hour',
  },
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: {
    value: `${FIXED.oauth.refreshTokenTtlSeconds} (30 days)`,
    why: 'each use of a refresh token rotates it',
  },
  OAUTH_GRANT_TTL_SECONDS: {
    value: `${FIXED.oauth.grantTtlSeconds} (90 days)`,
    why: 'after that the person consents again',
  },
  OAUTH_CLIENT_ID_METADATA_DOCUMENTS: {
    value: String(FIXED.oauth.clientIdMetadataDocuments),
    why: '`https://` client ids are fetched through the same address rules as webhooks ([mcp.md](mcp.md))',
  },
  SIGN_IN_WINDOW_MS: { value: `${FIXED.signIn.windowMs} (15 minutes)`, why: 'the window of both `SIGN_IN_LIMITS`' },
  DNS_SERVERS: {
    value: "the system's resolvers",
    why: 'sending-domain verification looks up public TXT records, which any resolver answers',
  },
};
