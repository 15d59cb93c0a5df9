import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_APP_SECRET, type TestContext } from '../helpers/test-context.js';
import { waitUntil } from '../helpers/wait.js';
import { spawnChild } from '../helpers/children.js';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited early with ${child.exitCode}`);
      try {
        return (await fetch(`${url}/healthz`)).ok;
      } catch {
        return false; // not listening yet
      }
    },
    30_000,
    'the server to become healthy',
    100,
  );
}

describe('graceful shutdown (npm run start:web) on SIGTERM', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('stops accepting, finishes the request in flight, then exits 0', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawnChild(process.execPath, ['--import', 'tsx', 'src/web.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: t.deps.config.database.url,
        REDIS_URL: t.deps.config.redis.url,
        BULLMQ_PREFIX: t.deps.config.bullmqPrefix,
        APP_SECRET: TEST_APP_SECRET,
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await waitForHealth(url, child);

    // A request whose body is still arriving when the signal comes.
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${url}/v1/auth/login`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('{"email":"nobody@example.com",');
      setTimeout(() => {
        child.kill('SIGTERM');
        setTimeout(async () => {
          // New connections are refused while the old request is still open.
          await expect(fetch(`${url}/healthz`)).rejects.toThrow();
          req.end('"password":"not the password"}');
        }, 300);
      }, 100);
    });

    const answered = await response;
    expect(answered.status).toBe(401);
    expect(JSON.parse(answered.body).error.code).toBe('invalid_credential');
    expect(await exited).toBe(0);
  });
});
