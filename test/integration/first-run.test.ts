import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../helpers/app-process.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// `npm start` on a fresh checkout, in development: no OPS_*, no APP_SECRET, no LOG_FORMAT. It generates what it
// needs into .data/ of its working directory, the operator pages work at once, and its first words say where
// everything is without a single secret. The database and Redis URLs carry passwords (ignored by this machine's
// trust-auth Postgres and password-less Redis) to prove that the banner hides them.

const PG_PASSWORD = 'pg-password-never-printed';
const REDIS_PASSWORD = 'redis-password-never-printed';
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

let t: TestContext;
let cwd: string;
let env: Record<string, string>;

beforeAll(async () => {
  t = await createTestContext();
  cwd = mkdtempSync(join(tmpdir(), 'sb-first-run-'));
  const db = new URL(t.deps.config.database.url);
  db.password = PG_PASSWORD;
  const redis = new URL(t.deps.config.redis.url);
  redis.password = REDIS_PASSWORD;
  env = {
    DATABASE_URL: db.toString(),
    REDIS_URL: redis.toString(),
    BULLMQ_PREFIX: t.deps.config.bullmqPrefix,
    LOG_LEVEL: 'info',
  };
}, 300_000);

afterAll(async () => {
  await t?.close();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

// A start-up under the whole suite's load compiles the service with tsx while other files run: 30 s was too short
// once, on a slow host.
const bannerOf = async (app: AppProcess, title: string) => {
  await waitUntil(() => app.stdout().includes(title), 90_000, 'the start-up banner');
  return app.stdout();
};

describe('first run in development, nothing configured but where Postgres and Redis are', () => {
  let app: AppProcess;
  let credentials: string;
  beforeAll(async () => {
    app = await startAppProcess('main', { cwd, env });
    await bannerOf(app, 'switchboard listening');
    credentials = readFileSync(join(cwd, '.data', 'ops-credentials'), 'utf8').trim();
  }, 300_000);
  afterAll(() => app?.stop());

  it('generates operator credentials into .data/ops-credentials, readable by its owner only', () => {
    const file = join(cwd, '.data', 'ops-credentials');
    expect(credentials).toMatch(/^ops:[A-Za-z0-9_-]{32}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('serves bull-board and /metrics with them at once, 401 without or with a wrong password', async () => {
    for (const path of ['/metrics', '/admin/queues', '/admin/queues/api/queues']) {
      expect((await fetch(app.url + path, { headers: { authorization: basic(credentials) } })).status, path).toBe(200);
      const none = await fetch(app.url + path);
      expect(none.status, path).toBe(401);
      expect(none.headers.get('www-authenticate')).toContain('Basic');
      expect((await fetch(app.url + path, { headers: { authorization: basic('ops:wrong') } })).status, path).toBe(401);
    }
  });

  it('logs JSON when stdout is not a terminal, and its banner says where everything is', () => {
    const lines = app.stdout().trim().split('\n');
    const records = lines.map((line) => JSON.parse(line) as Record<string, string>);
    // npm start supervises an API process and a worker process (WORKERS=auto, at least one); the banner names them.
    const banner = records.find((r) => r.msg?.startsWith('switchboard listening ('))!;
    expect(banner.msg).toMatch(/^switchboard listening \(supervisor pid \d+; api pid \d+; workers \+ scheduler pids? /);
    const base = `http://localhost:${app.port}`;
    expect(banner).toMatchObject({
      api: base,
      dashboard: `${base}/dashboard (sign in with an account's email and password)`,
      docs: `${base}/docs`,
      bullBoard: `${base}/admin/queues (user "ops", password in .data/ops-credentials)`,
      metrics: `${base}/metrics (the same credentials)`,
    });
    expect(banner.postgres).toMatch(/^external, postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/sbt_/);
    expect(banner.redis).toMatch(/^external, redis:\/\/:\*\*\*@127\.0\.0\.1:\d+/);
  });

  it('prints no secret: not the operator password, the app secret, nor a password from a URL', () => {
    const appSecret = readFileSync(join(cwd, '.data', 'app-secret'), 'utf8').trim();
    const output = app.stdout() + app.stderr();
    for (const secret of [credentials.slice('ops:'.length), appSecret, PG_PASSWORD, REDIS_PASSWORD]) {
      expect(secret.length).toBeGreaterThan(10);
      expect(output).not.toContain(secret);
    }
  });
});

describe('LOG_FORMAT', () => {
  it('pretty: readable lines and an aligned banner even into a pipe, the same credentials on the second run', async () => {
    const before = readFileSync(join(cwd, '.data', 'ops-credentials'), 'utf8');
    const app = await startAppProcess('web', { cwd, env: { ...env, LOG_FORMAT: 'pretty' } });
    try {
      const out = await bannerOf(app, 'switchboard listening (api)');
      await fetch(`${app.url}/healthz`);
      const base = `http://localhost:${app.port}`;
      expect(out).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: switchboard listening \(api\)$/m);
      expect(out).toContain(`\n  API         ${base}\n`);
      expect(out).toContain(`\n  Dashboard   ${base}/dashboard (sign in with an account's email and password)\n`);
      expect(out).toContain(`\n  Docs        ${base}/docs\n`);
      expect(out).toContain(`\n  Bull-board  ${base}/admin/queues (user "ops", password in .data/ops-credentials)\n`);
      expect(out).toContain(`\n  Metrics     ${base}/metrics (the same credentials)\n`);
      expect(out).toMatch(/\n {2}Postgres {4}external, postgres:\/\/postgres:\*\*\*@/);
      expect(out).toMatch(/\n {2}Redis {7}external, redis:\/\/:\*\*\*@/);
      await waitUntil(() => /INFO: request .*"route":"\/healthz"/.test(app.stdout()), 30_000, 'the access log line');
      expect(out.split('\n').some((line) => line.startsWith('{'))).toBe(false);
      expect(app.stdout()).not.toContain(PG_PASSWORD);
      expect(readFileSync(join(cwd, '.data', 'ops-credentials'), 'utf8')).toBe(before);
    } finally {
      await app.stop();
    }
  }, 300_000);

  it('json: one JSON object a line', async () => {
    const app = await startAppProcess('web', { cwd, env: { ...env, LOG_FORMAT: 'json' } });
    try {
      await bannerOf(app, 'switchboard listening (api)');
      const records = app
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { msg: string; level: string; time: string });
      expect(records.find((r) => r.msg === 'switchboard listening (api)')).toMatchObject({
        level: 'info',
        docs: `http://localhost:${app.port}/docs`,
      });
      // Level names and ISO times; the access line names method, path (without the query), status and duration.
      for (const r of records) expect(r.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect((await fetch(`${app.url}/v1/webhooks?token=query-secret`)).status).toBe(401);
      const line = await waitUntil(
        () =>
          app
            .stdout()
            .split('\n')
            .filter((l) => l.startsWith('{'))
            .map((l) => JSON.parse(l))
            .find((r) => r.msg === 'request' && r.path === '/v1/webhooks'),
        30_000,
        'the access log line',
      );
      expect(line).toMatchObject({
        level: 'info',
        method: 'GET',
        path: '/v1/webhooks',
        route: '/v1/webhooks',
        status: 401,
      });
      expect(typeof line.durationMs).toBe('number');
      expect(app.stdout()).not.toContain('query-secret');
    } finally {
      await app.stop();
    }
  }, 300_000);
});
