import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// The record window (docs/adr/0079-record-window.md), through real workers and receivers: an unordered delivery's
// attempt record waits for others and goes in one statement with them; an ordered delivery's goes at once. The
// deliveries a statement recorded share its transaction's `completed_at`. With 4 concurrent jobs of one delivery
// each, a windowed batch goes once 2 wait in it, so nothing here waits out the window.

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext(
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', QUEUE_CONCURRENCY: 'webhook-delivery=4' },
    {
      tune: (config) => {
        config.webhooks.recordWindowMs = 1000;
        config.webhooks.deliveriesPerJob = 1;
      },
    },
  );
  await t.startWorkers();
});
afterAll(() => t?.close());

/** A new account subscribed to contact.updated at `r`, with the ordering given. */
async function subscribed(r: Receiver, ordering: 'none' | 'key'): Promise<string> {
  const api = client(t.url);
  const { token, accountId } = await signupAccount(api);
  const res = await api.post('/v1/webhooks', { token, body: { url: r.url, events: ['contact.updated'], ordering } });
  expect(res.status).toBe(201);
  return accountId;
}

const emit = (accountId: string, id: string) =>
  transactWithEvents(t.deps, accountId, (_trx, e) => e({ type: 'contact.updated', payload: { id } }));

const deliveryOf = (eventId: string) =>
  t.deps.db('webhook_deliveries').where({ event_id: eventId }).first<{ status: string; completed_at: Date | null }>();

async function succeeded(eventId: string) {
  return waitUntil(async () => {
    const d = await deliveryOf(eventId);
    return d?.status === 'succeeded' ? d : undefined;
  });
}

describe('the record window', () => {
  it("records unordered deliveries together in one statement, an ordered one's at once and apart", async () => {
    const [ru, ro] = await Promise.all([startReceiver(), startReceiver()]);
    try {
      const unordered = await subscribed(ru, 'none');
      const ordered = await subscribed(ro, 'key');

      // The first unordered attempt arrives; its record waits for company.
      const u1 = await emit(unordered, 'c_u1');
      await ru.waitFor(1);
      // An ordered delivery made meanwhile is recorded (and its key advanced) without joining that batch.
      const o1Row = await succeeded(await emit(ordered, 'c_o1'));
      // The second unordered attempt fills the batch: both are recorded by one statement.
      const u2 = await emit(unordered, 'c_u2');
      const [u1Row, u2Row] = await Promise.all([succeeded(u1), succeeded(u2)]);

      expect(ru.received).toHaveLength(2);
      expect(ro.received).toHaveLength(1);
      expect(u1Row.completed_at!.getTime()).toBe(u2Row.completed_at!.getTime());
      expect(o1Row.completed_at!.getTime()).toBeLessThan(u1Row.completed_at!.getTime());
    } finally {
      await Promise.all([ru.close(), ro.close()]);
    }
  });
});
