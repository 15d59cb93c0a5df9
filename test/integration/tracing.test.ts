import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueues } from '../../src/platform/queues.js';
import { startAppProcess, type AppProcess } from '../helpers/app-process.js';
import { client, signupAccount } from '../helpers/http.js';
import { freePort } from '../helpers/ports.js';
import { attributeOf as attr, SPAN_KIND as KIND, spansOf, startCollector, type OtlpSpan } from '../helpers/otlp.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitFor, waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { childEnv } from '../helpers/worker-child.js';
import { spawnChild } from '../helpers/children.js';

// Traces across processes (docs/tracing.md): a web process and a worker process, each started as the Procfile
// starts it (with the instrumentation preloaded), export OTLP/HTTP JSON to a receiver this test runs. One API
// request that emits an event makes one trace: the request, its queries, the enqueue, the worker's job and the
// POST to the subscriber, whose traceparent names that POST. A collector that is gone costs nothing but spans.

const OPS = { OPS_USERNAME: 'operator', OPS_PASSWORD: 'ops-password-123' };
const AUTH = { authorization: `Basic ${Buffer.from(`${OPS.OPS_USERNAME}:${OPS.OPS_PASSWORD}`).toString('base64')}` };
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;
const TSX = createRequire(import.meta.url).resolve('tsx');

let t: TestContext;
let dir: string;
let collector: Receiver;
let subscriber: Receiver;
const started: AppProcess[] = [];
const prefixes: string[] = [];

/** A web process and a worker process on the context's database, with their own BullMQ prefix, `env` (and `webEnv`). */
async function startPair(name: string, env: Record<string, string>, webEnv: Record<string, string> = {}) {
  const base = childEnv(t, {}) as Record<string, string>;
  const prefix = `${t.deps.config.bullmqPrefix}${name}`;
  prefixes.push(prefix);
  const common = {
    DATABASE_URL: base.DATABASE_URL!,
    REDIS_URL: base.REDIS_URL!,
    APP_SECRET: base.APP_SECRET!,
    BULLMQ_PREFIX: prefix,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // Spans leave within a tenth of a second of ending, so that the test waits on them briefly.
    OTEL_BSP_SCHEDULE_DELAY: '100',
    ...OPS,
    ...env,
  };
  const [web, worker] = await Promise.all([
    startAppProcess('web', { cwd: dir, env: { ...common, ...webEnv } }),
    startAppProcess('worker', { cwd: dir, env: common }),
  ]);
  started.push(web, worker);
  return { web, worker, prefix };
}

/** What a receiver's URL can hold that only it should know (chat webhooks put a secret in the path): never in a span. */
const SECRET_PATH = '/hooks/path-secret-4f1a?ref=query-secret-9c2e';

/** Signs up on `url`, subscribes the receiver (at SECRET_PATH) and sends its test event; the 202 is asserted. */
async function emitTestEvent(url: string, receiver: Receiver): Promise<void> {
  const api = client(url);
  const { token } = await signupAccount(api);
  const body = { url: `${receiver.url}${SECRET_PATH}`, events: ['message.received'] };
  const created = await api.post('/v1/webhooks', { token, body });
  expect(created.status).toBe(201);
  expect((await api.post(`/v1/webhooks/${created.body.id}/test`, { token })).status).toBe(202);
}

/** The data of the delivery job a webhook request names (its id is `<delivery id>.<job_seq>`). */
async function jobDataOf(prefix: string, deliveryId: string): Promise<Record<string, unknown>> {
  const queues = createQueues(t.deps.redis, prefix, () => undefined);
  try {
    return (await queues['webhook-delivery'].getJob(`${deliveryId}.1`))!.data;
  } finally {
    await queues.close();
  }
}

async function droppedSpans(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: AUTH })).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('switchboard_trace_spans_dropped_total{reason="export_failed"}'));
  return Number(line?.split(' ').pop() ?? 0);
}

/** Runs node with the instrumentation preloaded as npm start does, `code` as the program; its exit and output. */
function runPreloaded(env: Record<string, string>, code: string) {
  const args = ['--import', TSX, '--import', './src/instrumentation.ts', '-e', code];
  const proc = spawnChild(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env } });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    proc.once('exit', (code) => resolve({ code, out, err })),
  );
}

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  dir = mkdtempSync(join(tmpdir(), 'sb-tracing-'));
  collector = await startCollector();
  subscriber = await startReceiver();
}, 300_000);

afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  for (const prefix of prefixes) {
    const keys = await t.deps.redis.keys(`${prefix}:*`);
    if (keys.length) await t.deps.redis.del(...keys);
  }
  await collector?.close();
  await subscriber?.close();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  it('makes one trace of an event, from the API request in one process to the POST in another', async () => {
    const otlp = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    // The API process holds its spans for ten minutes: they reach the collector because SIGTERM flushes them.
    const { web, prefix } = await startPair('t', otlp, { OTEL_BSP_SCHEDULE_DELAY: '600000' });
    await emitTestEvent(web.url, subscriber);
    const [delivery] = await subscriber.waitFor(1, 30_000);
    const header = String(delivery!.headers.traceparent);
    expect(header).toMatch(TRACEPARENT);
    const [, traceId, postSpanId] = TRACEPARENT.exec(header)!;
    // A probe, then the shutdown whose flush carries every span the API made before it.
    expect((await fetch(`${web.url}/healthz`)).status).toBe(200);
    expect(spansOf(collector).filter((s) => s.service === 'switchboard-api')).toEqual([]);
    await web.stop();
    expect(web.proc.exitCode).toBe(0);

    const inTrace = () => spansOf(collector).filter((s) => s.traceId === traceId);
    const has = (spans: OtlpSpan[], service: string, kind: number, name?: string) =>
      spans.find((s) => s.service === service && s.kind === kind && (!name || s.name === name));
    const spans = await waitFor(
      inTrace,
      (spans) =>
        Boolean(
          has(spans, 'switchboard-api', KIND.server) &&
          has(spans, 'switchboard-api', KIND.producer, 'send deliver-webhook') &&
          has(spans, 'switchboard-worker', KIND.consumer, 'process deliver-webhook') &&
          spans.some((s) => s.spanId === postSpanId),
        ),
      { timeoutMs: 30_000, what: 'the spans of both processes in the trace' },
    );
    // The request span names its route; its queries (the emitting transaction) are in the trace under it.
    const request = has(spans, 'switchboard-api', KIND.server)!;
    expect(attr(request, 'http.route')?.stringValue).toBe('/v1/webhooks/:webhookId/test');
    const queries = spans.filter((s) => s.service === 'switchboard-api' && s.name.startsWith('pg.query:'));
    const names = queries.map((s) => s.name.split(' ')[0]);
    expect(names).toEqual(expect.arrayContaining(['pg.query:BEGIN', 'pg.query:COMMIT']));
    // Enqueue → job → POST, parent to child, the job in the other process.
    const enqueue = has(spans, 'switchboard-api', KIND.producer, 'send deliver-webhook')!;
    const job = has(spans, 'switchboard-worker', KIND.consumer, 'process deliver-webhook')!;
    const post = spans.find((s) => s.spanId === postSpanId)!;
    expect(job.parentSpanId).toBe(enqueue.spanId);
    expect(attr(job, 'switchboard.job.outcome')?.stringValue).toBe('succeeded');
    expect(post).toMatchObject({ service: 'switchboard-worker', kind: KIND.client, parentSpanId: job.spanId });

    // The job carries ids only: the delivery, its job number and the enqueue's traceparent.
    const data = await jobDataOf(prefix, String(delivery!.headers['x-switchboard-delivery']));
    expect(data).toEqual({ deliveryId: expect.any(String), seq: 1, traceparent: `00-${traceId}-${enqueue.spanId}-01` });
    // The receiver's URL is the customer's: its origin is recorded, never its path or query.
    expect(attr(post, 'url.full')?.stringValue).toBe(subscriber.url);
    expect(JSON.stringify(spansOf(collector))).not.toMatch(/path-secret|query-secret/);
    // No probe makes a trace of its own (the flush above came after the probe).
    expect(spansOf(collector).some((s) => attr(s, 'url.path')?.stringValue === '/healthz')).toBe(false);
  }, 300_000);

  it('never holds up a request or a delivery when the collector is gone, and counts the spans lost', async () => {
    const gone = `http://127.0.0.1:${await freePort()}`;
    const lost = await startReceiver();
    try {
      const { web, worker } = await startPair('g', {
        OTEL_EXPORTER_OTLP_ENDPOINT: gone,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TIMEOUT: '1000',
      });
      await emitTestEvent(web.url, lost);
      const [delivery] = await lost.waitFor(1, 30_000);
      expect(delivery!.headers.traceparent).toMatch(TRACEPARENT);
      for (const p of [web, worker]) {
        await waitUntil(async () => (await droppedSpans(p.url)) > 0, 30_000, `export_failed spans on ${p.url}`);
      }
    } finally {
      await lost.close();
    }
  }, 300_000);
});

describe('with no OTLP endpoint', () => {
  it('sends no traceparent and puts none in job data', async () => {
    await t.startWorkers();
    const off = await startReceiver();
    try {
      await emitTestEvent(t.url, off);
      const [delivery] = await off.waitFor(1, 30_000);
      expect(delivery!.headers.traceparent).toBeUndefined();
      const data = await jobDataOf(t.deps.config.bullmqPrefix, String(delivery!.headers['x-switchboard-delivery']));
      expect(Object.keys(data).sort()).toEqual(['deliveryId', 'seq']);
    } finally {
      await off.close();
    }
  }, 300_000);

  it('loads nothing of the SDK; a bad OTEL_* value stops start-up with one line naming it', async () => {
    // CommonJS modules loaded so far, the SDK's among them when it was started.
    const probe =
      "console.log(Object.keys(require('module')._cache).filter((k) => k.includes('@opentelemetry')).length)";
    const [off, on, bad] = await Promise.all([
      runPreloaded({}, probe),
      runPreloaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }, probe),
      runPreloaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, probe),
    ]);
    expect(off).toMatchObject({ code: 0, out: '0\n' });
    expect(Number(on.out)).toBeGreaterThan(0);
    expect(bad.code).toBe(1);
    expect(bad.err.trim().split('\n')).toEqual([
      expect.stringMatching(/^switchboard: OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json/),
    ]);
  }, 300_000);
});
