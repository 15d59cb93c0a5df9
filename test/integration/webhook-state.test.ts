import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryJobId } from '../../src/delivery/schedule.js';
import {
  recordExhaustions,
  recordRetries,
  recordSuccesses,
  type AttemptRecord,
} from '../../src/delivery/sql/record.js';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, type Client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { setupAccount } from '../helpers/setup-account.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// The delivery state machine never goes back, a redeliver never makes a waiting retry send twice, a secret
// rotation never loses a secret, and one delivery's data never fails another's. Retries wait 30 s here, so a
// scheduled retry is still waiting when the test acts.

let t: TestContext;
let api: Client;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_DELAYS_MS: '30000,30000' });
  api = client(t.url);
  await t.startWorkers();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
});

async function setup(respond?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(respond);
  receivers.push(r);
  const owner = await setupAccount(t, { webhook: { url: r.url } });
  return { ...owner, r, wh: owner.webhook };
}

const emit = (accountId: string, id: string) =>
  transactWithEvents(t.deps, accountId, (_trx, e) => e({ type: 'message.received', payload: { id } }));
const deliveryOf = async (eventId: string) =>
  (await t.deps.db('webhook_deliveries').where({ event_id: eventId }).first())!;
const webhookRow = async (id: string) => (await t.deps.db('webhooks').where({ id }).first())!;
const attemptsOf = (deliveryId: string) =>
  t.deps.db('webhook_attempts').where({ delivery_id: deliveryId }).orderBy('created_at');

/** A later event arrives alone: nothing else was sent to this receiver in between. */
async function expectOnly(s: Awaited<ReturnType<typeof setup>>, expected: number) {
  await emit(s.accountId, 'sentinel');
  await waitUntil(() => s.r.received.some((x) => x.body.payload.id === 'sentinel'), 30_000, 'the sentinel');
  expect(s.r.received).toHaveLength(expected + 1);
}

describe('the delivery state machine', () => {
  it('records a late attempt for a delivery that moved on, but moves neither the delivery nor the count', async () => {
    const s = await setup();
    const eventId = await emit(s.accountId, 'once');
    const done = await waitUntil(async () => {
      const d = await deliveryOf(eventId);
      return d.status === 'succeeded' && d;
    });
    await t.deps.db('webhooks').where({ id: s.wh.id }).update({ consecutive_failures: 2 });
    // The job that made the first attempt (job_seq 1) reports again, as a stalled duplicate would.
    const late: AttemptRecord = {
      accountId: s.accountId,
      deliveryId: done.id,
      deliveryCreatedAt: done.created_at,
      webhookId: s.wh.id,
      event: 'message.received',
      url: s.r.url,
      seq: 1,
      attemptNumber: 1,
      responseStatus: 500,
      responseBody: 'late',
      error: 'http_status',
      errorMessage: 'receiver answered 500',
      durationMs: 3,
    };
    expect(await recordRetries(t.deps.db, [{ ...late, retryDelayMs: 0 }])).toEqual([null]);
    expect(await recordExhaustions(t.deps.db, [late])).toEqual([null]);
    expect(
      await recordSuccesses(t.deps.db, [{ ...late, responseStatus: 200, error: null, errorMessage: null }]),
    ).toEqual([false]);

    const after = await deliveryOf(eventId);
    expect(after).toMatchObject({ status: 'succeeded', attempts: 1, job_seq: done.job_seq, next_attempt_at: null });
    expect((await webhookRow(s.wh.id)).consecutive_failures).toBe(2);
    const attempts = await attemptsOf(done.id);
    expect(attempts.map((a) => [a.status, a.next_attempt_at])).toEqual([
      ['succeeded', null],
      ['failed', null],
      ['failed', null],
      ['succeeded', null],
    ]);
  });

  it('redeliver of a delivery waiting for its retry sends it once: the waiting job becomes stale', async () => {
    let healthy = false;
    const s = await setup(() => (healthy ? { status: 200 } : { status: 500 }));
    const eventId = await emit(s.accountId, 'retrying');
    const waiting = await waitUntil(async () => {
      const d = await deliveryOf(eventId);
      return d.attempts === 1 && d;
    });
    expect(waiting).toMatchObject({ status: 'pending', job_seq: 2 });
    const queue = t.deps.queues['webhook-delivery'];
    // The retry's job is added right after the row says so.
    await waitUntil(
      async () => (await queue.getJobState(deliveryJobId(waiting))) === 'delayed',
      30_000,
      'the retry job',
    );

    healthy = true;
    expect(
      (await api.post(`/v1/webhooks/${s.wh.id}/deliveries/${waiting.id}/redeliver`, { token: s.token })).status,
    ).toBe(202);
    await waitUntil(async () => (await deliveryOf(eventId)).status === 'succeeded');
    // The retry that was waiting runs now, finds its number stale, and sends nothing.
    await (await queue.getJob(deliveryJobId(waiting)))!.promote();
    await waitUntil(async () => (await queue.getJobState(deliveryJobId(waiting))) === 'completed');
    expect((await queue.getJob(deliveryJobId(waiting)))!.returnvalue).toEqual({ outcome: 'already succeeded' });
    await expectOnly(s, 2);
    expect((await attemptsOf(waiting.id)).map((a) => a.attempt_number)).toEqual([1, 2]);
  });

  it('keeps both secrets when two rotations race (one atomic UPDATE)', async () => {
    const s = await setup();
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all(
        [0, 1].map(() => api.post(`/v1/webhooks/${s.wh.id}/rotate-secret`, { token: s.token })),
      );
      const row = await webhookRow(s.wh.id);
      const stored = [row.secret_sealed, row.previous_secret_sealed].map((x: string) => t.deps.sealers.webhook.open(x));
      expect(stored.sort()).toEqual([a!.body.secret, b!.body.secret].sort());
    }
  });
});

describe("one delivery's data never fails another's", () => {
  it('re-runs a refused batch item by item: only the bad record fails', async () => {
    const s = await setup(() => ({ status: 500 }));
    const eventIds = [await emit(s.accountId, 'a'), await emit(s.accountId, 'b'), await emit(s.accountId, 'c')];
    // Each made its first attempt and waits 30 s for a retry.
    const rows = await waitUntil(async () => {
      const all = await Promise.all(eventIds.map(deliveryOf));
      return all.every((d) => d.attempts === 1) && all;
    });
    const record = (d: (typeof rows)[number], body: string): AttemptRecord => ({
      accountId: s.accountId,
      deliveryId: d.id,
      deliveryCreatedAt: d.created_at,
      webhookId: s.wh.id,
      event: 'message.received',
      url: s.r.url,
      seq: d.job_seq,
      attemptNumber: 2,
      responseStatus: 200,
      responseBody: body,
      error: null,
      errorMessage: null,
      durationMs: 1,
    });
    // A NUL that bypassed the HTTP client's clean-up: Postgres refuses the statement it is in.
    const results = await Promise.allSettled(
      rows.map((d, i) => t.deps.delivery.unordered.succeed(record(d, i === 1 ? 'bad\u0000' : 'ok'))),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const after = await Promise.all(eventIds.map(deliveryOf));
    expect(after.map((d) => d.status)).toEqual(['succeeded', 'pending', 'succeeded']);
  });

  it("a receiver answering 200 with NUL and invalid UTF-8 is recorded succeeded; another account's 40 arrive once each", async () => {
    const odd = await setup();
    odd.r.respond = () => ({ status: 200, body: Buffer.from([0x6f, 0x6b, 0x00, 0xff, 0xfe, 0x00]) });
    const healthy = await setup();
    const oddEvent = emit(odd.accountId, 'odd');
    const healthyEvents = Array.from({ length: 40 }, (_, i) => emit(healthy.accountId, `h${i}`));
    await Promise.all([oddEvent, ...healthyEvents]);
    await healthy.r.waitFor(40);
    const oddRow = await waitUntil(async () => {
      const d = await deliveryOf(await oddEvent);
      return d.status !== 'pending' && d;
    });
    expect(oddRow).toMatchObject({ status: 'succeeded', attempts: 1 });
    const [attempt] = await attemptsOf(oddRow.id);
    expect(attempt).toMatchObject({
      status: 'succeeded',
      response_status: 200,
      response_body: 'ok\uFFFD\uFFFD\uFFFD\uFFFD',
    });
    await expectOnly(healthy, 40);
    expect(new Set(healthy.r.received.map((x) => x.body.id)).size).toBe(41);
  });
});
