import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery } from '../../src/platform/db.js';
import { startAppProcess } from '../helpers/app-process.js';
import { startCollector } from '../helpers/otlp.js';
import type { Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { spawnChild } from '../helpers/children.js';

// The production build as the image and the Procfile run it: `npm run build`, then plain node on dist/ (no tsx).

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const proc = spawnChild(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    proc.once('exit', (code) => resolve({ code, out }));
  });
}

let t: TestContext;
let dir: string;
let env: Record<string, string>;
let collector: Receiver;

beforeAll(async () => {
  t = await createTestContext();
  collector = await startCollector();
  dir = mkdtempSync(join(tmpdir(), 'sb-build-'));
  const { config } = t.deps;
  env = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_FORMAT: 'json',
    DATABASE_URL: config.database.url,
    REDIS_URL: config.redis.url,
    BULLMQ_PREFIX: config.bullmqPrefix,
    APP_SECRET: config.appSecret,
    OPS_USERNAME: 'operator',
    OPS_PASSWORD: 'ops-password-123',
  };
  const build = await run('npm', ['run', 'build']);
  expect(build.code, build.out).toBe(0);
}, 900_000);

afterAll(async () => {
  await collector?.close();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const node = (entry: string, extra: Record<string, string>) =>
  run(process.execPath, [`dist/src/${entry}.js`], { PATH: process.env.PATH ?? '', ...env, ...extra });

describe('the compiled build', () => {
  it('leaves the switchboard CLI out: it is a package of its own (packages/cli)', () => {
    expect(existsSync(join(ROOT, 'dist', 'src', 'main.js'))).toBe(true);
    expect(existsSync(join(ROOT, 'dist', 'src', 'cli'))).toBe(false);
    expect(existsSync(join(ROOT, 'dist', 'packages'))).toBe(false);
  });

  it('migrates a new database from dist/migrations, and finds one migrated through tsx up to date', async () => {
    const fresh = new URL(env.DATABASE_URL!);
    fresh.pathname = `${fresh.pathname}_fresh`;
    try {
      const first = await node('migrate', { DATABASE_URL: fresh.toString() });
      expect(first.code, first.out).toBe(0);
      const applied = first.out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .find((r) => r.msg === 'migrations applied');
      // A count and the newest name, not the list; the names knex records are the .ts names, whichever form ran them.
      expect(applied.count).toBeGreaterThan(10);
      expect(applied.latest).toMatch(/^\d+_\w+\.ts$/);
      expect(JSON.stringify(applied).length).toBeLessThan(300);
      const again = await node('migrate', {});
      expect(again.code, again.out).toBe(0);
      expect(again.out).not.toContain('migrations applied');
      expect(again.out).toContain('migrations up to date');
    } finally {
      await adminQuery(fresh.toString(), `DROP DATABASE IF EXISTS "${fresh.pathname.slice(1)}"`);
    }
  }, 300_000);

  it('starts with node dist/src/main.js and answers /healthz, / leads to /docs, and its API process traces', async () => {
    // The instrumentation preloaded as the image does, and handed on to npm start's children; the default
    // protocol, http/protobuf, whose strings (the service name) are plain bytes in the body.
    const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
    const app = await startAppProcess('main', { cwd: dir, env: { ...env, ...traced }, built: true });
    try {
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
      const root = await fetch(`${app.url}/`, { redirect: 'manual' });
      expect(root.headers.get('location')).toBe('/docs');
      const exported = await waitUntil(
        () => collector.received.find((r) => r.raw.includes('switchboard-api')),
        30_000,
        'spans from the API child process',
      );
      expect(exported.path).toBe('/v1/traces');
      expect(exported.headers['content-type']).toBe('application/x-protobuf');
    } finally {
      await app.stop();
    }
  }, 300_000);

  it('runs a worker with node dist/src/worker.js whose /healthz answers on METRICS_PORT', async () => {
    const worker = await startAppProcess('worker', { cwd: dir, env, built: true });
    try {
      expect(await (await fetch(`${worker.url}/healthz`)).json()).toEqual({ status: 'ok' });
      expect((await fetch(`${worker.url}/metrics`)).status).toBe(401);
    } finally {
      await worker.stop();
    }
  }, 300_000);
});
