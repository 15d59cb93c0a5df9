import type { ChildProcess } from 'node:child_process';
import type { Env } from '../../src/platform/config.js';
import { spawnChild } from './children.js';
import { freePort } from './ports.js';
import { waitUntil } from './wait.js';
import type { TestContext } from './test-context.js';
import { childEnv } from './worker-child.js';

export interface ApiChild {
  proc: ChildProcess;
  url: string;
}

/**
 * Starts the real API entry point (src/web.ts, the Procfile's `web`) as a child process on the context's database,
 * Redis and BullMQ prefix, and resolves once it answers /healthz. A process that exits first rejects at once.
 */
export async function spawnApiProcess(t: TestContext, env: Env): Promise<ApiChild> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = spawnChild(process.execPath, ['--import', 'tsx', 'src/web.ts'], {
    env: { ...childEnv(t, env), PORT: String(port), PUBLIC_URL: url },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited: string | null = null;
  proc.once('exit', (code, signal) => (exited = `API process exited with ${code ?? signal}`));
  await waitUntil(
    async () => {
      if (exited) throw new Error(exited);
      return fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    120_000,
    `the API process on ${url} to answer`,
  );
  return { proc, url };
}
