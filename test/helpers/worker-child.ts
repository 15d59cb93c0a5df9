import type { ChildProcess } from 'node:child_process';
import type { Env } from '../../src/platform/config.js';
import { describeRedis } from '../../src/platform/redis.js';
import { endChild, spawnChild } from './children.js';
import type { TestContext } from './test-context.js';

export interface WorkerChild {
  proc: ChildProcess;
  /** Resolves once its workers listen. */
  ready: Promise<void>;
}

/** The environment of a child process of the service on the context's database, Redis and prefix, `env` on top. */
export function childEnv(t: TestContext, env: Env): NodeJS.ProcessEnv {
  const { config } = t.deps;
  return {
    ...process.env,
    ...env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: config.database.url,
    // Empty means unset: a REDIS_URL inherited from the shell must not meet REDIS_CLUSTER_NODES.
    ...(config.redis.clusterNodes
      ? { REDIS_URL: '', REDIS_CLUSTER_NODES: describeRedis(config.redis) }
      : { REDIS_URL: config.redis.url }),
    BULLMQ_PREFIX: config.bullmqPrefix,
    APP_SECRET: config.appSecret,
  };
}

/**
 * Starts worker-process.ts as a child on the context's database, Redis and BullMQ prefix, with `env` on top.
 * The process is returned at once (a crash test may need to kill it before it says it is ready), by its own pid.
 */
export function spawnWorkerProcess(t: TestContext, env: Env, opts: { schedule?: boolean } = {}): WorkerChild {
  const args = ['--import', 'tsx', 'test/helpers/worker-process.ts', ...(opts.schedule ? ['--schedule'] : [])];
  const proc = spawnChild(process.execPath, args, {
    env: childEnv(t, env),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('worker process did not start')), 120_000);
    proc.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`worker process exited with ${code ?? signal}`));
    });
  });
  // Killing a child before it is ready is allowed; nobody need observe that rejection.
  ready.catch(() => undefined);
  return { proc, ready };
}

/** SIGKILLs the process (its whole group) and waits for it to be gone. */
export const killHard = (proc: ChildProcess): Promise<void> => endChild(proc);
