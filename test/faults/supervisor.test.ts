import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../helpers/app-process.js';
import { runChild } from '../helpers/children.js';
import { client, signupAccount } from '../helpers/http.js';
import { freePort } from '../helpers/ports.js';
import { isRunning } from '../helpers/process-tree.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { killHard, spawnWorkerProcess } from '../helpers/worker-child.js';

// `npm start` as a person runs it: a supervisor with an API process and a worker process (docs/processes.md).
// The worker process killed mid-delivery is started again and nothing is lost; one that keeps dying is started
// again after a growing wait and reported as a crash loop; WORKERS=0 still delivers from one
// process; SIGTERM during deliveries drains every process within SHUTDOWN_TIMEOUT_MS and loses nothing; a bad
// WORKERS or a port in use refuses with one line before any worker starts.

const WEBHOOKS = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_DELAYS_MS: '200,400',
  // lockDuration is three times this: 3 s until a killed worker's job is taken back.
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_SWEEP_AFTER_MS: '0',
  SCHEDULE_INTERVALS_MS: 'relay-outbox=500,check-schedulers=500',
} as const;

let t: TestContext;
let cwd: string;
let receiver: Receiver;
/** What the receiver does with a delivery of the contact of this name (default: answer at once). */
let onArrival: (name: string) => { stallMs?: number } | void = () => undefined;

beforeAll(async () => {
  t = await createTestContext(WEBHOOKS);
  cwd = mkdtempSync(join(tmpdir(), 'sb-supervisor-'));
  receiver = await startReceiver((req) => onArrival(String(req.body?.payload?.name)) ?? undefined);
}, 300_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

const env = (extra: Record<string, string>) => {
  const { config } = t.deps;
  return {
    ...WEBHOOKS,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    DATABASE_URL: config.database.url,
    REDIS_URL: config.redis.url,
    BULLMQ_PREFIX: config.bullmqPrefix,
    APP_SECRET: config.appSecret,
    ...extra,
  };
};

const bannerOf = async (app: AppProcess) => {
  const line = await waitUntil(
    () =>
      app
        .stdout()
        .split('\n')
        .find((l) => l.includes('switchboard listening')),
    60_000,
    'the start-up banner',
  );
  return JSON.parse(line) as { msg: string };
};
const workerPidOf = (banner: { msg: string }) => Number(/workers \+ scheduler pids? (\d+)/.exec(banner.msg)![1]);

/** An account subscribed to contact.created at the receiver, and a way to create its contacts over HTTP. */
async function subscribedAccount(app: AppProcess) {
  const api = client(app.url);
  const { token } = await signupAccount(api);
  const wh = await api.post('/v1/webhooks', { token, body: { url: receiver.url, events: ['contact.created'] } });
  expect(wh.status).toBe(201);
  const create = async (name: string) => {
    const res = await api.post('/v1/contacts', { token, body: { name, email: `${name}@example.com` } });
    expect(res.status).toBe(201);
  };
  return { webhookId: wh.body.id as string, create };
}

/** The names the service's processes give their Postgres connections (the test's own have none). */
async function connectionNames(): Promise<string[]> {
  const { rows } = await t.deps.db.raw(
    `SELECT DISTINCT application_name FROM pg_stat_activity
      WHERE datname = current_database() AND application_name LIKE 'switchboard%' ORDER BY 1`,
  );
  return rows.map((r: { application_name: string }) => r.application_name);
}

const arrivals = (name: string) => receiver.received.filter((r) => r.body?.payload?.name === name).length;

/** Every delivery of the subscription ends succeeded, and each arrived at least once. */
async function expectAllDelivered(webhookId: string, count: number) {
  const rows = await waitUntil(
    async () => {
      const all = await t.deps.db('webhook_deliveries').where({ webhook_id: webhookId });
      return all.length === count && all.every((d) => d.status === 'succeeded') && all;
    },
    90_000,
    `${count} deliveries to succeed`,
  );
  const arrived = new Set(receiver.received.map((r) => r.body.id));
  for (const d of rows) expect(arrived.has(d.id)).toBe(true);
}

describe('npm start with a worker process', () => {
  it('restarts the worker process killed mid-delivery, and loses nothing', async () => {
    const app = await startAppProcess('main', { cwd, env: env({ WORKERS: '1' }) });
    try {
      const banner = await bannerOf(app);
      const title = /^switchboard listening \(supervisor pid \d+; api pid \d+; workers \+ scheduler pid \d+\)$/;
      expect(banner.msg).toMatch(title);
      const workerPid = workerPidOf(banner);
      const { webhookId, create } = await subscribedAccount(app);
      // The marked contact's first delivery kills the worker process while it is being sent (and is never answered).
      onArrival = (name) => {
        if (name !== 'marked' || arrivals('marked') > 1) return { stallMs: 20 + Math.floor(Math.random() * 60) };
        process.kill(workerPid, 'SIGKILL');
        return { stallMs: 60_000 };
      };
      for (let i = 0; i < 30; i++) await create(i === 5 ? 'marked' : `c${i}`);

      const restarted = () => app.stdout().includes('the workers process is back');
      await waitUntil(restarted, 60_000, 'the worker process restarted');
      const exited = app
        .stdout()
        .split('\n')
        .find((l) => l.includes('the workers process exited'))!;
      expect(JSON.parse(exited)).toMatchObject({ role: 'workers', childPid: workerPid, signal: 'SIGKILL' });
      await expectAllDelivered(webhookId, 30);
      expect(arrivals('marked')).toBeGreaterThanOrEqual(2);
      expect(await connectionNames()).toEqual(['switchboard-api', 'switchboard-workers']);
      // The API process was never touched: the requests were answered throughout.
      expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    } finally {
      onArrival = () => undefined;
      await app.stop();
    }
  }, 300_000);

  it('a worker process that keeps dying is restarted with a growing wait and reported, then serves again', async () => {
    const app = await startAppProcess('main', { cwd, env: env({ WORKERS: '1' }) });
    try {
      const logged = () =>
        app
          .stdout()
          .split('\n')
          .flatMap((l): Array<{ level: string; msg: string; childPid?: number; restartInMs?: number }> => {
            try {
              return [JSON.parse(l)];
            } catch {
              return []; // a line still being written
            }
          });
      // Four deaths within seconds of each start: a crash loop.
      let pid = workerPidOf(await bannerOf(app));
      const killed: number[] = [];
      for (let i = 0; i < 4; i++) {
        process.kill(pid, 'SIGKILL');
        killed.push(pid);
        pid = await waitUntil(
          () =>
            logged().find((l) => l.msg === 'the workers process is back' && !killed.includes(l.childPid!))?.childPid,
          60_000,
          `a worker process after ${pid}`,
        );
      }
      const exits = logged().filter((l) => /^the workers process (exited|keeps dying)/.test(l.msg));
      expect(exits.map((l) => l.childPid)).toEqual(killed);
      // Each quick death doubles the wait before the next start; from the third on, it is an error, not a warning.
      expect(exits.map((l) => l.restartInMs)).toEqual([250, 500, 1000, 2000]);
      expect(exits.map((l) => l.msg.includes('keeps dying'))).toEqual([false, false, true, true]);
      expect(exits.map((l) => l.level)).toEqual(['warn', 'warn', 'error', 'error']);

      // The last one serves: a delivery made now arrives.
      const { webhookId, create } = await subscribedAccount(app);
      await create('after-the-loop');
      await expectAllDelivered(webhookId, 1);
      expect(isRunning(pid)).toBe(true);
    } finally {
      await app.stop();
    }
  }, 300_000);

  it('SIGTERM during deliveries: every process drains, exits within SHUTDOWN_TIMEOUT_MS, loses nothing', async () => {
    const timeoutMs = 15_000;
    const settings = { WORKERS: '1', SHUTDOWN_TIMEOUT_MS: String(timeoutMs) };
    const app = await startAppProcess('main', { cwd, env: env(settings) });
    const banner = await bannerOf(app);
    const pids = [...banner.msg.matchAll(/pids? (\d+)/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(3);
    const { webhookId, create } = await subscribedAccount(app);
    onArrival = () => ({ stallMs: 500 });
    for (let i = 0; i < 20; i++) await create(`s${i}`);
    await waitUntil(() => receiver.received.length >= 1, 30_000, 'the first delivery to be under way');

    const exited = new Promise<number | null>((resolve) => app.proc.once('exit', (code) => resolve(code)));
    app.proc.kill('SIGTERM');
    const code = await exited;
    // Within the timeout by the service's own clock: what is left at 80 % of it is killed and said so, and at 90 %
    // the process exits 1 saying so; it drained before either.
    expect(code).toBe(0);
    expect(app.stdout()).not.toContain('at the shutdown deadline');
    expect(app.stdout()).not.toContain('did not finish within SHUTDOWN_TIMEOUT_MS');
    for (const pid of pids) expect(isRunning(pid), `pid ${pid}`).toBe(false);
    // One process speaks for all: one warning, one "shutting down", one "stopped" (the children's are debug lines).
    const lines = (msg: string) =>
      app
        .stdout()
        .split('\n')
        .filter((l) => l.includes(`"msg":"${msg}`)).length;
    expect(lines('shutting down: finishing requests and jobs in flight')).toBe(1);
    expect(lines('stopped')).toBe(1);
    expect(lines('WEBHOOK_ALLOW_PRIVATE_TARGETS=true')).toBe(1);

    // Whatever had not been sent waits in the queue (or is scheduled again by the sweep) for the next worker.
    onArrival = () => undefined;
    const next = spawnWorkerProcess(t, WEBHOOKS, { schedule: true });
    try {
      await next.ready;
      await expectAllDelivered(webhookId, 20);
    } finally {
      await killHard(next.proc);
    }
  }, 300_000);
});

describe('npm start with WORKERS=0', () => {
  it('runs everything in one process, and delivers', async () => {
    const app = await startAppProcess('main', { cwd, env: env({ WORKERS: '0' }) });
    try {
      const title = /^switchboard listening \(supervisor pid \d+; api \+ workers \+ scheduler pid \d+\)$/;
      expect((await bannerOf(app)).msg).toMatch(title);
      const { webhookId, create } = await subscribedAccount(app);
      await create('single');
      await expectAllDelivered(webhookId, 1);
      expect(await connectionNames()).toEqual(['switchboard']);
    } finally {
      await app.stop();
    }
  }, 300_000);
});

describe('start-up refusals', () => {
  const start = (extra: Record<string, string>) =>
    runChild(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, ...env(extra) },
    });

  it('a bad value: the one line the configuration says, exit 1, nothing else printed', async () => {
    // Each refusal's words are the configuration's (test/unit/config.test.ts); this is the path they take out of
    // npm start: the first child prints the line, the supervisor adds nothing.
    const res = await start({ WORKERS: 'many' });
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toBe('switchboard: WORKERS must be auto or a whole number between 0 and 64, got "many"');
    expect(res.stdout).toBe('');
  }, 300_000);

  it('a port in use: one line naming the port and PORT, exit 1, before any other process starts', async () => {
    const port = await freePort();
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(port, '0.0.0.0', resolve));
    try {
      const res = await start({ PORT: String(port), WORKERS: '2' });
      expect(res.status).toBe(1);
      // HOST's development default is 127.0.0.1, which the wildcard listener above covers.
      const line = `port ${port} on 127.0.0.1 is in use by another process: stop it, or set PORT to a free port`;
      expect(res.stderr.trim()).toBe(`switchboard: ${line}`);
      expect(res.stdout).not.toContain('process ready');
      expect(res.stdout).not.toContain('migrations applied');
    } finally {
      busy.close();
    }
  }, 300_000);

  it('/readyz answers 503 "draining" from the moment shutdown starts', async () => {
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    t.deps.lifecycle.draining = true;
    try {
      const res = await fetch(`${t.url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'draining', checks: { postgres: 'ok', redis: 'ok' } });
    } finally {
      t.deps.lifecycle.draining = false;
    }
  });
});
