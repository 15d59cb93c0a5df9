import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeps } from '../../src/app/runtime.js';
import { transactWithEvents } from '../../src/events/emit.js';
import { startServer } from '../../src/http/server.js';
import { withStalledQueue } from '../helpers/dead-queue.js';
import { deliveryIdsOf } from '../helpers/delivery-jobs.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// A request that commits an event is answered at commit: the jobs of its deliveries are added after it, in the
// background, where the commit window may hold them for other commits' deliveries. A runtime that closes adds what it
// still holds before it closes Redis (docs/adr/0082-the-response-does-not-wait-for-the-queue.md).

/** The longest commit window there is: a commit that follows another this closely waits for it in full. */
const WINDOW_MS = 50;

let t: TestContext;
let api: Client;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestContext(
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    { tune: (config) => void (config.webhooks.armWindowMs = WINDOW_MS) },
  );
  api = client(t.url);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

/** An account subscribed to contact.created. */
async function subscribedAccount() {
  const { token, accountId } = await signupAccount(api);
  const res = await api.post('/v1/webhooks', { token, body: { url: receiver.url, events: ['contact.created'] } });
  expect(res.status).toBe(201);
  return { token, accountId };
}

const deliveriesOf = (accountId: string) =>
  t.deps.db('webhook_deliveries').where({ account_id: accountId }).orderBy('created_at');

/** Whether a job still to run holds the delivery, in any delivery shard. */
async function queued(deliveryId: string): Promise<boolean> {
  for (const queue of t.deps.queues.deliveryShards) {
    const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized']);
    if (jobs.some((job) => deliveryIdsOf(job).includes(deliveryId))) return true;
  }
  return false;
}

describe('the schedule after commit', () => {
  it('answers POST /v1/contacts while its delivery job is still being added', async () => {
    const { token, accountId } = await subscribedAccount();
    const stalled = await withStalledQueue(t.deps);
    const server = await startServer(stalled.deps, 0, '127.0.0.1');
    let handedOff = false;
    try {
      const res = await client(server.url).post('/v1/contacts', {
        token,
        body: { name: 'Ada', email: 'ada@example.com' },
      });
      expect(res.status).toBe(201);
      // The add is still out: the queue's Redis has not answered it, and will not until released.
      void t.deps.background.settled().then(() => (handedOff = true));
      const [delivery] = await deliveriesOf(accountId);
      expect(delivery).toMatchObject({ status: 'pending', job_seq: 1 });
      expect(handedOff).toBe(false);
    } finally {
      await server.close();
      await stalled.release();
    }
    // Released, the add failed and the schedule is over; the row, still pending, is the sweep's
    // (webhook-sweep.test.ts).
    expect(handedOff).toBe(true);
  }, 300_000);

  it('adds the jobs a closing runtime still holds before it closes Redis', async () => {
    const { accountId } = await subscribedAccount();
    const deps = await t.createRuntime();
    const commit = (id: string) =>
      transactWithEvents(deps, accountId, (_trx, emit) => emit({ type: 'contact.created', payload: { id } }));
    // The first commit's job goes at once; the second, close behind it, waits in the commit window.
    await commit('first');
    await commit('held');
    await closeDeps(deps);
    const rows = await deliveriesOf(accountId);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(await queued(row.id)).toBe(true);
  }, 300_000);
});
