import { relative } from 'node:path';
import type { Config } from '../platform/config.js';
import { withoutPassword } from '../platform/url-password.js';
import type { LocalServices } from '../platform/local-services.js';
import type { Logger } from '../platform/logger.js';
import { describeRedis } from '../platform/redis.js';
import { writeBanner, type Banner } from '../platform/startup-banner.js';
import { DASHBOARD_PATH } from './dashboard/session.js';
import { OPS_METRICS_PATH, OPS_QUEUES_PATH } from './ops.js';
import { DOCS_PATH } from './docs.js';

// The one message a person reads at start: where the API, its docs and the operator pages are, and which Postgres
// and Redis this process uses. It names the file that holds the operator password, never a password itself:
// every URL goes through withoutPassword (describeRedis uses it too), which hides the passwords in them.

export interface StartupFacts {
  config: Config;
  /** The origin clients reach the API at. */
  url: string;
  /** What runs in this process, e.g. "api + workers + scheduler". */
  roles: string;
  started: LocalServices['started'];
}

export type { Banner };

export function describeStartup({ config, url, started }: StartupFacts): Banner {
  const { ops } = config;
  const who = !ops
    ? 'off: set OPS_USERNAME and OPS_PASSWORD'
    : ops.file
      ? `user "${ops.username}", password in ${relative(process.cwd(), ops.file)}`
      : `user "${ops.username}", password from OPS_PASSWORD`;
  const dataDir = relative(process.cwd(), config.dataDir) || '.';
  const redis = config.redis.clusterNodes
    ? `external Redis Cluster, ${describeRedis(config.redis)}`
    : started.redis
      ? `redis-server started by switchboard (data in ${dataDir}/redis), ${describeRedis(config.redis.url)}`
      : `external, ${describeRedis(config.redis.url)}`;
  return {
    api: url,
    dashboard: `${url}${DASHBOARD_PATH} (sign in with an account's email and password)`,
    docs: `${url}${DOCS_PATH}`,
    bullBoard: ops ? `${url}${OPS_QUEUES_PATH} (${who})` : `(${who})`,
    metrics: ops ? `${url}${OPS_METRICS_PATH} (the same credentials)` : `(${who})`,
    postgres: started.postgres
      ? `embedded Postgres (data in ${dataDir}/postgres), ${withoutPassword(config.database.url)}`
      : `external, ${withoutPassword(config.database.url)}`,
    redis,
  };
}

/** The banner's title and rows, written as the log format wants them. */
export function logStartup(logger: Logger, facts: StartupFacts): void {
  writeBanner(logger, facts.config.logFormat, `switchboard listening (${facts.roles})`, describeStartup(facts));
}
