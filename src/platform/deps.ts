import type { Config } from './config.js';
import type { Db } from './db.js';
import type { Logger } from './logger.js';
import type { Queues } from './queues.js';
import type { Redis } from './redis.js';

/** What services, routes and processors are given. Nothing in the service is a module-level singleton. */
export interface Deps {
  config: Config;
  db: Db;
  /** Fail-fast connection for request-time use (rate limits, caches). */
  redis: Redis;
  queues: Queues;
  logger: Logger;
}
