import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeps } from '../../src/app/runtime.js';
import { bucketUpperMs, durationBucket } from '../../src/webhooks/endpoint-stats.js';
import { pruneWebhookStats } from '../../src/webhooks/endpoint-stats.service.js';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey } from '../helpers/keys.js';
import { callTool, connectMcp } from '../helpers/mcp.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Endpoint health (GET /v1/webhooks/:id/stats and the MCP tool get_webhook_stats) from real deliveries to a real
// receiver that answers fast, slowly, 500 or not in time. One retry after 30 ms, a 1 s timeout (a slow answer takes
// a fifth of it, so a loaded machine does not turn it into a timeout).

let t: TestContext;
let api: Client;
let r: Receiver;

beforeAll(async () => {
  t = await createTestContext({
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '30',
    WEBHOOK_TIMEOUT_MS: '4000',
    WEBHOOK_DISABLE_AFTER: '50',
  });
  api = client(t.url);
  // The payload id says how to answer: slow_* after 1.5 s, fail_* 500, hang_* never in time. The margins are wide
  // (fast ones under 1 s, slow ones well inside the 4 s timeout) so that a loaded machine cannot blur the two.
  r = await startReceiver((req) => {
    const id = String(req.body?.payload?.id ?? '');
    if (id.startsWith('slow_')) return { stallMs: 1500 };
    if (id.startsWith('fail_')) return { status: 500 };
    if (id.startsWith('hang_')) return { stallMs: 10_000 };
  });
  await t.startWorkers();
});
afterAll(async () => {
  await r?.close();
  await t?.close();
});

async function emitAll(accountId: string, ids: string[]) {
  await transactWithEvents(t.deps, accountId, async (_trx, emit) => {
    for (const id of ids) await emit({ type: 'message.received', payload: { id } });
  });
}

const statsOf = async (token: string, id: string, window = '1h') =>
  (await api.get(`/v1/webhooks/${id}/stats?window=${window}`, { token })).body;
const untilAttempts = (token: string, id: string, n: number) =>
  waitUntil(
    async () => {
      const s = await statsOf(token, id);
      return s.attempts === n && s;
    },
    30_000,
    `${n} attempts in the stats`,
  );

/** p50 and p95 of the subscription's recorded attempt durations, each read as its histogram bucket's upper bound. */
async function percentilesOfAttempts(webhookId: string) {
  const rows = await t.deps.db('webhook_attempts').where({ webhook_id: webhookId }).select('duration_ms');
  const sorted = rows.map((r: { duration_ms: number }) => r.duration_ms).sort((a, b) => a - b);
  const at = (p: number) => bucketUpperMs(durationBucket(sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1]!));
  return { p50: at(0.5), p95: at(0.95) };
}

describe('GET /v1/webhooks/:id/stats', () => {
  it('counts attempts, success rate, p50/p95, errors and status classes, last times and consecutive failures', async () => {
    const { token, accountId } = await signupAccount(api);
    const wh = (await api.post('/v1/webhooks', { token, body: { url: r.url, events: ['message.received'] } })).body;
    const empty = await statsOf(token, wh.id);
    expect(empty).toMatchObject({
      webhookId: wh.id,
      window: '1h',
      attempts: 0,
      successRate: null,
      durationMs: { p50: null, p95: null },
      lastSuccessAt: null,
      lastFailureAt: null,
      consecutiveFailures: { attempts: 0, deliveries: 0, disableAfter: 50 },
    });

    await emitAll(accountId, ['ok_1', 'ok_2', 'ok_3', 'ok_4', 'ok_5', 'ok_6', 'ok_7', 'ok_8', 'slow_1', 'slow_2']);
    const first = await untilAttempts(token, wh.id, 10);
    expect(first).toMatchObject({ succeeded: 10, failed: 0, successRate: 1 });
    expect(first.byError).toEqual({});
    expect(first.byStatusClass).toEqual({ '2xx': 10, '3xx': 0, '4xx': 0, '5xx': 0, none: 0 });
    // The percentiles of the durations the attempts recorded, as the histogram reads them; the slow answers are
    // the slowest.
    expect(first.durationMs).toEqual(await percentilesOfAttempts(wh.id));
    expect(first.durationMs.p95).toBeGreaterThanOrEqual(1500);

    // Two deliveries answered 500 and one never in time, each tried twice: six failed attempts in a row.
    await emitAll(accountId, ['fail_1', 'fail_2', 'hang_1']);
    await untilAttempts(token, wh.id, 16);
    const failed = await waitUntil(async () => {
      const s = await statsOf(token, wh.id);
      return s.consecutiveFailures.deliveries === 3 && s;
    });
    expect(failed).toMatchObject({
      attempts: 16,
      succeeded: 10,
      failed: 6,
      successRate: 0.625,
      consecutiveFailures: { attempts: 6, deliveries: 3 },
    });
    expect(failed.byError).toEqual({ http_status: 4, timeout: 2 });
    expect(failed.byStatusClass).toEqual({ '2xx': 10, '3xx': 0, '4xx': 0, '5xx': 4, none: 2 });
    expect(Date.parse(failed.lastFailureAt)).toBeGreaterThan(Date.parse(failed.lastSuccessAt));
    // The hung attempts took the whole timeout: they are the slowest.
    expect(failed.durationMs).toEqual(await percentilesOfAttempts(wh.id));
    expect(failed.durationMs.p95).toBeGreaterThanOrEqual(4000);

    // One success clears the attempts count and the exhausted-deliveries count.
    await emitAll(accountId, ['ok_9']);
    const after = await untilAttempts(token, wh.id, 17);
    expect(after.consecutiveFailures).toEqual({ attempts: 0, deliveries: 0, disableAfter: 50 });
    expect(Date.parse(after.lastSuccessAt)).toBeGreaterThan(Date.parse(failed.lastFailureAt));

    // The figures come from counters, not from attempt rows: without them the answer is the same.
    await t.deps.db('webhook_attempts').where({ webhook_id: wh.id }).delete();
    expect(await statsOf(token, wh.id, '24h')).toMatchObject({ attempts: 17, succeeded: 11, window: '24h' });
  });

  it('windows cover their buckets only, old buckets are pruned after eight days, and the MCP tool answers the same', async () => {
    const { token, accountId } = await signupAccount(api);
    const wh = (await api.post('/v1/webhooks', { token, body: { url: r.url, events: ['message.received'] } })).body;
    await emitAll(accountId, ['ok_1']);
    await untilAttempts(token, wh.id, 1);
    const bucket = (daysAgo: number) => ({
      webhook_id: wh.id,
      account_id: accountId,
      bucket_start: new Date(Math.floor((Date.now() - daysAgo * 86400_000) / 300_000) * 300_000),
      attempts: 4,
      successes: 1,
      by_error: JSON.stringify({ http_status: 3 }),
      by_status: JSON.stringify({ '2xx': 1, '5xx': 3 }),
      durations: JSON.stringify({ 40: 4 }),
    });
    await t.deps.db('webhook_stats').insert([bucket(2), bucket(9)]);

    expect((await statsOf(token, wh.id, '1h')).attempts).toBe(1);
    expect((await statsOf(token, wh.id, '24h')).attempts).toBe(1);
    const week = await statsOf(token, wh.id, '7d');
    expect(week).toMatchObject({ window: '7d', attempts: 5, succeeded: 2, byStatusClass: { '2xx': 2, '5xx': 3 } });
    expect(week.byError).toEqual({ http_status: 3 });
    expect(Date.parse(week.to) - Date.parse(week.from)).toBeGreaterThanOrEqual(7 * 86400_000);

    expect(await pruneWebhookStats(t.deps)).toBe(1);
    expect(await t.deps.db('webhook_stats').where({ webhook_id: wh.id })).toHaveLength(2);
    expect((await statsOf(token, wh.id, '7d')).attempts).toBe(5);

    const key = await createAccountKey(api, token, { scopes: ['read:webhooks'] });
    const conn = await connectMcp(t.url, '/v1/mcp', key.key);
    try {
      const res = await callTool(conn, 'get_webhook_stats', { webhookId: wh.id, window: '7d' });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toMatchObject({ webhookId: wh.id, window: '7d', attempts: 5 });
      const bad = await callTool(conn, 'get_webhook_stats', { webhookId: wh.id, window: '2h' });
      expect(bad.isError).toBe(true);
    } finally {
      await conn.close();
    }
  });

  it('a closing runtime writes the figures of its last attempts, which its window still held', async () => {
    const { token, accountId } = await signupAccount(api);
    const wh = (await api.post('/v1/webhooks', { token, body: { url: r.url, events: ['message.received'] } })).body;
    const runtime = await t.createRuntime();
    const at = Date.now();
    const sample = { accountId, webhookId: wh.id, durationMs: 40 };
    runtime.webhookStats.record({ ...sample, at, ok: true, status: 200, error: null });
    runtime.webhookStats.record({ ...sample, at: at + 1, ok: false, status: null, error: 'timeout' });
    // At once, inside the recorder's window: the figures are still in memory.
    await closeDeps(runtime);
    const stats = await statsOf(token, wh.id);
    expect(stats).toMatchObject({ attempts: 2, succeeded: 1, consecutiveFailures: { attempts: 1 } });
  });

  it('refuses a window not in the list and unknown parameters, needs read:webhooks, and answers 404 for another account', async () => {
    const a = await signupAccount(api);
    const b = await signupAccount(api);
    const wh = (await api.post('/v1/webhooks', { token: a.token, body: { url: r.url, events: ['message.received'] } }))
      .body;
    for (const q of ['window=2h', 'window=', 'window=1H', 'window=1h&window=7d', 'days=7']) {
      const res = await api.get(`/v1/webhooks/${wh.id}/stats?${q}`, { token: a.token });
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
    expect(
      (await api.get(`/v1/webhooks/${wh.id}/stats?window=2h`, { token: a.token })).body.error.details.fields[0].field,
    ).toBe('window');
    expect((await api.get(`/v1/webhooks/${wh.id}/stats`, { token: a.token })).body.window).toBe('24h');
    expect((await api.get(`/v1/webhooks/${wh.id}/stats`, { token: b.token })).status).toBe(404);
    const noScope = await createAccountKey(api, a.token, { scopes: ['read:agents'] });
    const denied = await api.get(`/v1/webhooks/${wh.id}/stats`, { token: noScope.key });
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.requiredScope).toBe('read:webhooks');
  });
});
