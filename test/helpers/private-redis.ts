import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { redisAnswers } from '../../src/platform/redis.js';
import { signalGroup, spawnChild } from './children.js';
import { freePort } from './ports.js';
import { waitUntil } from './wait.js';

// A redis-server of the test's own on a spare port, for fault tests: the shared Redis is never stopped. Its
// data lives in a temporary directory, so it can come back with its data (saved at stop) or empty.

export interface PrivateRedis {
  url: string;
  /** Stops the server (its own pid only); `keepData` saves an RDB snapshot first, else the data is gone. */
  stop(opts: { keepData: boolean }): Promise<void>;
  /** Starts it again on the same port and directory (loading the snapshot if one was saved). */
  start(): Promise<void>;
  /** SIGSTOP: its connections stay open and nothing is answered, as on a wedged connection; `thaw` resumes it. */
  freeze(): void;
  thaw(): void;
  /** Stops it for good and removes its directory. */
  destroy(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sb-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawnChild(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await waitUntil(() => redisAnswers(url), 30_000, 'the private redis-server to answer');
  };
  const stop = async ({ keepData }: { keepData: boolean }) => {
    const proc = child;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    if (keepData) {
      // SHUTDOWN SAVE writes a snapshot, then exits; the next start loads it.
      const admin = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      admin.on('error', () => undefined);
      await admin.connect();
      await admin.call('SHUTDOWN', 'SAVE').catch(() => undefined);
      admin.disconnect();
    } else {
      rmSync(join(dir, 'dump.rdb'), { force: true });
      proc.kill('SIGKILL');
    }
    await exited;
  };
  await start();
  return {
    url,
    stop,
    start,
    freeze: () => signalGroup(child?.pid, 'SIGSTOP'),
    thaw: () => signalGroup(child?.pid, 'SIGCONT'),
    destroy: async () => {
      signalGroup(child?.pid, 'SIGCONT');
      await stop({ keepData: false });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
