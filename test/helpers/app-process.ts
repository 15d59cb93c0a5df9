import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { signalGroup, spawnChild } from './children.js';
import { freePort } from './ports.js';
import { waitUntil } from './wait.js';

// An entry point of the service (src/main.ts is `npm start`) as a person starts it: its own process, in a
// working directory of the test's choosing (where its .data/ goes), with exactly the environment given (nothing
// inherited from the test runner but PATH and HOME), its output captured.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// The tsx loader by absolute URL: the working directory has no node_modules to find it in.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface AppProcess {
  proc: ChildProcess;
  url: string;
  port: number;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then waits for the exit (its whole group SIGKILLed after 15 s). */
  stop(): Promise<void>;
}

/**
 * `worker` listens on METRICS_PORT (its /healthz is what is waited for); `built` runs the compiled entry point in
 * dist/ with plain node, as the production image does (`npm run build` first).
 */
export async function startAppProcess(
  entry: 'main' | 'web' | 'worker',
  opts: { cwd: string; env: Record<string, string>; built?: boolean },
): Promise<AppProcess> {
  const port = await freePort();
  // With the instrumentation preloaded as npm start, the Procfile and the image do (it does nothing unless an
  // OTLP endpoint is set: docs/tracing.md).
  const args = opts.built
    ? ['--import', `${ROOT}dist/src/instrumentation.js`, `${ROOT}dist/src/${entry}.js`]
    : ['--import', TSX, '--import', `${ROOT}src/instrumentation.ts`, `${ROOT}src/${entry}.ts`];
  const proc = spawnChild(process.execPath, args, {
    cwd: opts.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? opts.cwd,
      [entry === 'worker' ? 'METRICS_PORT' : 'PORT']: String(port),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    async () => {
      if (proc.exitCode !== null)
        throw new Error(`${entry}.ts exited with ${proc.exitCode}: ${err.trim().slice(0, 500)}`);
      return fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    120_000,
    `${entry}.ts on ${url} to answer`,
  );
  return {
    proc,
    url,
    port,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const timer = setTimeout(() => signalGroup(proc.pid, 'SIGKILL'), 15_000);
      proc.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
  };
}
