import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { killHard, spawnWorkerProcess, type WorkerChild } from '../helpers/worker-child.js';

// The throttle is per subscription, not per process: two worker processes share one subscription's 10/s.

let t: TestContext;
let api: Client;
let r: Receiver;
const children: WorkerChild[] = [];

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  api = client(t.url);
  r = await startReceiver();
});
afterAll(async () => {
  await Promise.all(children.map((c) => killHard(c.proc)));
  await r?.close();
  await t?.close();
});

describe('throttling across worker processes', () => {
  it('holds 10/s for the subscription with two worker processes sending its deliveries', async () => {
    for (let i = 0; i < 2; i++) children.push(spawnWorkerProcess(t, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }));
    await Promise.all(children.map((c) => c.ready));
    const { token, accountId } = await signupAccount(api);
    const wh = await api.post('/v1/webhooks', {
      token,
      body: { url: r.url, events: ['message.received'], rateLimitPerSecond: 10 },
    });

    await transactWithEvents(t.deps, accountId, async (_trx, emit) => {
      for (let i = 0; i < 40; i++) await emit({ type: 'message.received', payload: { id: `msg_${i}` } });
    });
    const got = await r.waitFor(40, 30_000);
    const ats = got.map((x) => x.at);
    const rate = (ats.length - 1) / ((ats[ats.length - 1]! - ats[0]!) / 1000);
    expect(rate).toBeGreaterThanOrEqual(8);
    expect(rate).toBeLessThanOrEqual(12);

    // Every attempt recorded, and both processes did send: the jobs name the worker that ran them last (the
    // transaction's deliveries shared jobs, which left those the throttle held back for jobs of their own).
    await waitUntil(
      async () => (await t.deps.db('webhook_attempts').where({ webhook_id: wh.body.id })).length === 40,
      30_000,
      'every attempt recorded',
    );
    const jobs = await t.deps.queues['webhook-delivery'].getCompleted(0, 100);
    expect(new Set(jobs.map((j) => j.processedBy)).size).toBe(2);
  });
});
