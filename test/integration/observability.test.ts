import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../helpers/app-process.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey } from '../helpers/keys.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { childEnv } from '../helpers/worker-child.js';
import { spawnChild } from '../helpers/children.js';

// What an operator sees of deliveries: the worker process's log lines (captured from a real `src/worker.ts`),
// its /metrics and /healthz on METRICS_PORT, and the API's /metrics, after real deliveries to real receivers.

const OPS = { OPS_USERNAME: 'operator', OPS_PASSWORD: 'ops-password-123' };
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const AUTH = { authorization: basic(OPS.OPS_USERNAME, OPS.OPS_PASSWORD) };

interface LogLine {
  level: string;
  time: string;
  msg: string;
  [field: string]: unknown;
}

let t: TestContext;
let api: Client;
let ok: Receiver;
let failing: Receiver;
let dir: string;
let token: string;
let okId: string;
let failingId: string;
const workers: AppProcess[] = [];

const linesOf = (p: AppProcess): LogLine[] =>
  p
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);

function startWorker(env: Record<string, string>): Promise<AppProcess> {
  const base = childEnv(t, {}) as Record<string, string>;
  const wanted = ['DATABASE_URL', 'REDIS_URL', 'BULLMQ_PREFIX', 'APP_SECRET'];
  return startAppProcess('worker', {
    cwd: dir,
    env: {
      ...Object.fromEntries(wanted.map((k) => [k, base[k]!])),
      NODE_ENV: 'test',
      LOG_FORMAT: 'json',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // A failed delivery is not retried within the test: each attempt the test waits for is a send of its own.
      WEBHOOK_RETRY_DELAYS_MS: '3600000',
      ...OPS,
      ...env,
    },
  }).then((p) => (workers.push(p), p));
}

const sendTest = async (webhookId: string) => {
  const res = await api.post(`/v1/webhooks/${webhookId}/test`, { token });
  expect(res.status).toBe(202);
};

const deliveryStatuses = async (webhookId: string) =>
  (await api.get(`/v1/webhooks/${webhookId}/deliveries`, { token })).body.data.map((d: { status: string }) => d.status);

beforeAll(async () => {
  t = await createTestContext({ ...OPS, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  api = client(t.url);
  ok = await startReceiver();
  failing = await startReceiver(() => ({ status: 500, body: 'broken' }));
  dir = mkdtempSync(join(tmpdir(), 'sb-observability-'));
  ({ token } = await signupAccount(api));
  const events = ['message.received'];
  okId = (await api.post('/v1/webhooks', { token, body: { url: ok.url, events } })).body.id;
  failingId = (await api.post('/v1/webhooks', { token, body: { url: failing.url, events } })).body.id;
}, 300_000);

afterAll(async () => {
  for (const w of workers) await w.stop();
  await ok?.close();
  await failing?.close();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a worker process with METRICS_PORT', () => {
  let worker: AppProcess;

  it('logs one JSON line per attempt: info when delivered, warn when not', async () => {
    worker = await startWorker({ LOG_LEVEL: 'info' });
    await sendTest(okId);
    await sendTest(failingId);
    const [delivered, failed] = await waitUntil(
      () => {
        const lines = linesOf(worker);
        const d = lines.find((l) => l.msg === 'webhook delivered');
        const f = lines.find((l) => l.msg === 'webhook delivery attempt failed');
        return d && f && [d, f];
      },
      30_000,
      'both delivery log lines',
    );
    expect(delivered).toMatchObject({
      level: 'info',
      event: 'webhook.test',
      subscriptionId: okId,
      attempt: 1,
      status: 200,
      outcome: 'succeeded',
      deliveryId: ok.received[0]!.headers['x-switchboard-delivery'],
    });
    expect(failed).toMatchObject({
      level: 'warn',
      event: 'webhook.test',
      subscriptionId: failingId,
      attempt: 1,
      status: 500,
      outcome: 'retry',
      deliveryId: failing.received[0]!.headers['x-switchboard-delivery'],
    });
    for (const line of [delivered, failed]) {
      expect(typeof line.durationMs).toBe('number');
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // Never the receiver's URL (its query may carry a token) nor its body.
      expect(JSON.stringify(line)).not.toContain('127.0.0.1');
      expect(JSON.stringify(line)).not.toContain('broken');
    }
  }, 300_000);

  it('answers /healthz without credentials and /metrics only with them', async () => {
    const health = await fetch(`${worker.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const none = await fetch(`${worker.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Basic');
    expect(((await none.json()) as { error: unknown }).error).toMatchObject({
      type: 'authentication_error',
      code: 'invalid_credential',
    });
    const wrong = await fetch(`${worker.url}/metrics`, { headers: { authorization: basic('operator', 'nope') } });
    expect(wrong.status).toBe(401);
    const elsewhere = await fetch(`${worker.url}/admin/queues`, { headers: AUTH });
    expect(elsewhere.status).toBe(404);
  });

  it('exports the delivery metrics of the attempts it made', async () => {
    const text = await (await fetch(`${worker.url}/metrics`, { headers: AUTH })).text();
    expect(text).toContain('switchboard_webhook_deliveries_total{outcome="succeeded",status_class="2xx"} 1');
    expect(text).toContain('switchboard_webhook_deliveries_total{outcome="retry",status_class="5xx"} 1');
    expect(text).toMatch(/switchboard_webhook_attempt_duration_seconds_count\{status_class="2xx"\} 1\n/);
    expect(text).toMatch(/switchboard_webhook_commit_to_arrival_seconds_count 1\n/);
    for (const q of ['webhook-fanout', 'webhook-delivery', 'agent-runs', 'message-send', 'maintenance']) {
      expect(text).toContain(`switchboard_queue_oldest_waiting_seconds{queue="${q}"}`);
      expect(text).toContain(`bullmq_queue_jobs{queue="${q}",state="waiting"}`);
    }
    for (const name of ['sweep_rescheduled_total', 'throttle_waits_total', 'subscriptions_disabled_total']) {
      expect(text).toContain(`# TYPE switchboard_webhook_${name} counter`);
    }
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('refuses to start on a METRICS_PORT that is taken, with one line naming it, before taking any job', async () => {
    const port = new URL(worker.url).port;
    const base = childEnv(t, {});
    const proc = spawnChild(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
      env: { ...base, LOG_LEVEL: 'silent', METRICS_PORT: port, ...OPS },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
    expect(code).toBe(1);
    expect(err.trim()).toBe(
      `switchboard: METRICS_PORT ${port} is not available (EADDRINUSE): set METRICS_PORT to a free port`,
    );
  }, 300_000);

  it('keeps only failures at LOG_LEVEL=warn', async () => {
    await worker.stop();
    const quiet = await startWorker({ LOG_LEVEL: 'warn' });
    await sendTest(okId);
    await waitUntil(
      async () => (await deliveryStatuses(okId)).filter((s: string) => s === 'succeeded').length === 2,
      30_000,
      'the second delivery to succeed',
    );
    // The failure after it is the sentinel: had the success been logged, its line would be there before.
    await sendTest(failingId);
    await waitUntil(() => failing.received.length >= 2, 30_000, 'the second failing attempt');
    await waitUntil(
      () => linesOf(quiet).some((l) => l.msg === 'webhook delivery attempt failed'),
      30_000,
      'the warn line',
    );
    expect(linesOf(quiet).filter((l) => l.msg === 'webhook delivered')).toEqual([]);
    expect(linesOf(quiet).every((l) => l.level !== 'info')).toBe(true);
  }, 300_000);
});

describe('the API process metrics', () => {
  it('serves the same service metrics, with its key-cache lookups', async () => {
    const key = await createAccountKey(api, token, { scopes: ['read:webhooks'] });
    for (let i = 0; i < 3; i++) expect((await api.get('/v1/webhooks', { token: key.key })).status).toBe(200);
    const text = String((await api.get('/metrics', { headers: AUTH })).body);
    expect(text).toMatch(/switchboard_key_cache_lookups_total\{result="miss"\} [1-9]/);
    expect(text).toMatch(/switchboard_key_cache_lookups_total\{result="hit"\} [1-9]/);
    expect(text).toContain('# TYPE switchboard_webhook_deliveries_total counter');
    expect(text).toMatch(/http_request_duration_seconds_bucket\{[^}]*route="\/v1\/webhooks"/);
    // Every series the Grafana dashboard charts is one this process exports.
    const dashboard = readFileSync(new URL('../../docs/grafana-dashboard.json', import.meta.url), 'utf8');
    const charted = new Set([...dashboard.matchAll(/\b((?:switchboard|bullmq|http)_[a-z_]+)/g)].map((m) => m[1]!));
    expect(charted.size).toBeGreaterThan(8);
    for (const series of charted) expect(text).toContain(`# TYPE ${series.replace(/_(bucket|count|sum)$/, '')} `);
  });
});
