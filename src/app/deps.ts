import type { ClaimHolder } from '../idempotency/claim-holder.js';
import type { KeyCache } from '../keys/key-cache.js';
import type { SignInLimits } from '../auth/sign-in-limits.js';
import type { EventFanOut } from '../events/emit.js';
import type { Delivery } from '../delivery/index.js';
import type { SigningKeyring } from '../delivery/sign.js';
import type { StreamHub } from '../webhooks/stream-hub.js';
import type { EventWakeups } from '../mcp/events/wakeups.js';
import type { WebhookStatsRecorder } from '../webhooks/endpoint-stats.service.js';
import type { Background } from '../platform/background.js';
import type { Config } from '../platform/config.js';
import type { Sealers } from '../platform/crypto.js';
import type { UsageMemo } from '../platform/usage-memo.js';
import type { Db } from '../platform/db.js';
import type { HttpClient } from '../platform/http-client.js';
import type { Logger } from '../platform/logger.js';
import type { ServiceMetrics } from '../platform/metrics.js';
import type { Queues } from '../platform/queues.js';
import type { RedisClient } from '../platform/redis.js';

/**
 * What services, routes and processors are given. Nothing in the service is a module-level singleton: every
 * piece of state a runtime keeps (connection pools, caches, memos, limiters, coalesced statements) is here, is
 * built by `createDeps` and is closed with the runtime (`closeDeps`), so two runtimes in one process share
 * nothing. State per HTTP app (the event streams it holds open) is on that app's context (src/http/app.ts).
 * `npm run lint` refuses module-level state (scripts/eslint-module-state.js names the few exceptions and why).
 */
export interface Deps {
  config: Config;
  db: Db;
  /** Fail-fast connection for request-time use (rate limits, caches). */
  redis: RedisClient;
  queues: Queues;
  logger: Logger;
  /** The one SSRF-safe outbound HTTP client (webhooks, agent runtimes, SMS providers) and its pool. */
  http: HttpClient;
  /** Sealers for secrets at rest, one per purpose. */
  sealers: Sealers;
  /** Webhook secrets as signing keys, each opened once (from sealers.webhook). */
  webhookKeys: SigningKeyring;
  /** This instance's cache of key rows, checked against Redis epochs on every request. */
  keyCache: KeyCache;
  /** When this runtime last wrote each API key's and OAuth grant's "last used" (at most once a minute each). */
  usageMemos: { keys: UsageMemo; grants: UsageMemo };
  /** Sign-in budgets per client IP and per email, counted in Redis under this runtime's prefix. */
  signInLimits: SignInLimits;
  /** Webhook delivery: its batches across the concurrent jobs of this process, its throttle, its transports. */
  delivery: Delivery;
  /** The streams this web process holds (`switchboard listen`); connects to Redis at the first one. */
  streamHub: StreamHub;
  /** The MCP event polls and streams this web process holds wait here for commits; connects at the first one. */
  eventWakeups: EventWakeups;
  /** Endpoint health figures, added per coalesced batch of attempts. */
  webhookStats: WebhookStatsRecorder;
  /** Where emitted events fan out (webhook deliveries), given to the emit module so it imports no webhook code. */
  eventFanOut: EventFanOut;
  /** This process's Prometheus metrics (served at /metrics, and on METRICS_PORT by worker processes). */
  metrics: ServiceMetrics;
  /** Work no caller waits for (a commit's schedule of its deliveries, endpoint figures); closeDeps waits for it. */
  background: Background;
  /** Whose this runtime's in-flight Idempotency-Key claims are; connects at the first claim. */
  claimHolder: ClaimHolder;
  /** Set once this process starts shutting down: /readyz answers 503 from then on (docs/processes.md). */
  lifecycle: { draining: boolean };
}

/** The connections a runtime is built on; everything else in Deps is derived from them. */
export type Connections = Pick<Deps, 'config' | 'db' | 'redis' | 'queues' | 'logger'>;
