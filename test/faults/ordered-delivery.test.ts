import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { killHard, spawnWorkerProcess } from '../helpers/worker-child.js';

// 1,000 events over 50 keys to an ordered subscription (docs/webhook-retries.md#ordered-delivery): each key's events
// are committed one transaction after another (their commit order is their number), the keys concurrently; the receiver
// answers 500 to one request in five; both worker processes are SIGKILLed twice mid-run. Per key, the first arrival of
// each delivery comes in commit order, and every delivery arrives and ends succeeded.

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  // Nine attempts: one delivery failing all of them at random (0.2⁹) is out of reach.
  WEBHOOK_RETRY_DELAYS_MS: '50,100,200,200,200,200,200,200',
  // lockDuration (and the stalled check) is three times this: 3 s until a killed worker's job is taken back.
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_DISABLE_AFTER: '1000',
  WEBHOOK_SWEEP_AFTER_MS: '0',
  SCHEDULE_INTERVALS_MS: 'relay-outbox=500,check-schedulers=500',
} as const;
const KEYS = 50;
const PER_KEY = 20;

let t: TestContext;
let api: Client;
let receiver: Receiver;
let children: ChildProcess[] = [];

beforeAll(async () => {
  t = await createTestContext(ENV);
  api = client(t.url);
  receiver = await startReceiver(() => ({ status: Math.random() < 0.2 ? 500 : 200, stallMs: 5 }));
});
afterAll(async () => {
  await Promise.all(children.map(killHard));
  await receiver?.close();
  await t?.close();
});

async function replaceWorkers(): Promise<void> {
  await Promise.all(children.map(killHard));
  const fresh = [spawnWorkerProcess(t, ENV, { schedule: true }), spawnWorkerProcess(t, ENV, { schedule: true })];
  children = fresh.map((c) => c.proc);
  await Promise.all(fresh.map((c) => c.ready));
}

/** Each key's delivery numbers in order of first arrival. */
function firstArrivals(): Map<string, number[]> {
  const seen = new Set<string>();
  const byKey = new Map<string, number[]>();
  for (const r of receiver.received) {
    if (seen.has(r.body.id)) continue;
    seen.add(r.body.id);
    const key = r.body.payload.id as string;
    byKey.set(key, [...(byKey.get(key) ?? []), r.body.payload.n as number]);
  }
  return byKey;
}

describe('ordered delivery with failing receivers and killed workers', () => {
  it('delivers each key in commit order, and every delivery', async () => {
    const { token, accountId } = await signupAccount(api);
    const wh = (
      await api.post('/v1/webhooks', {
        token,
        body: { url: receiver.url, events: ['contact.updated'], ordering: 'key' },
      })
    ).body;
    await replaceWorkers();

    const produced = Promise.all(
      Array.from({ length: KEYS }, async (_, k) => {
        for (let n = 0; n < PER_KEY; n++)
          await transactWithEvents(t.deps, accountId, (_trx, emit) =>
            emit({ type: 'contact.updated', payload: { id: `ct_${k}`, n } }),
          );
      }),
    );
    for (const share of [0.3, 0.6]) {
      await waitUntil(
        () => new Set(receiver.received.map((r) => r.body.id)).size >= KEYS * PER_KEY * share,
        60_000,
        `${share * 100}% of the deliveries`,
      );
      await replaceWorkers();
    }
    await produced;

    const rows = await waitUntil(
      async () => {
        const all = await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id });
        return all.length === KEYS * PER_KEY && all.every((d) => d.status === 'succeeded') && all;
      },
      90_000,
      'every delivery to succeed',
    );
    const arrived = new Set(receiver.received.map((r) => r.body.id));
    for (const d of rows) expect(arrived.has(d.id)).toBe(true);
    const inOrder = Array.from({ length: PER_KEY }, (_, n) => n);
    for (const [key, numbers] of firstArrivals()) expect({ key, numbers }).toEqual({ key, numbers: inOrder });
    expect(firstArrivals().size).toBe(KEYS);
    // Nothing is left in flight: every key's row goes with its last delivery (or with the sweep's repair).
    await waitUntil(
      async () => (await t.deps.db('webhook_ordering_keys').where({ webhook_id: wh.id })).length === 0,
      30_000,
      'every key to be idle',
    );
    console.info(
      `ordered-delivery: ${rows.length} deliveries over ${KEYS} keys, 2 kills, ${receiver.received.length} requests`,
    );
  }, 300_000);
});
