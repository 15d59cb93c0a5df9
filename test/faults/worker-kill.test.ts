import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWithEvents } from '../../src/events/emit.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { killHard, spawnWorkerProcess } from '../helpers/worker-child.js';

// Worker processes SIGKILLed four times while 160 deliveries are in flight. Two of the kills land while a worker
// sends one marked delivery, the second time after BullMQ had already put it back once, so BullMQ fails its job
// for stalling too often: the sweep must schedule again it. Every delivery arrives at least once and ends
// succeeded; the duplicates (at-least-once) are counted and printed.

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_DELAYS_MS: '200,400',
  // lockDuration (and the stalled check) is three times this: 3 s until a killed worker's job is taken back.
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_SWEEP_AFTER_MS: '0',
  SCHEDULE_INTERVALS_MS: 'relay-outbox=500,check-schedulers=500',
} as const;
const EVENTS = 160;

let t: TestContext;
let api: Client;
let receiver: Receiver;
let children: ChildProcess[] = [];

/** SIGKILLs every worker process at once, synchronously (from inside the receiver, mid-request). */
function killAllNow(): void {
  for (const c of children) c.kill('SIGKILL');
}

beforeAll(async () => {
  t = await createTestContext(ENV);
  api = client(t.url);
  // On its first two arrivals the marked delivery kills every worker process while it is being sent (and is never
  // answered); everything else is answered after a short wait, so many deliveries are in flight at every kill.
  let markedSeen = 0;
  receiver = await startReceiver((req) => {
    if (req.body?.payload?.id !== 'marked') return { stallMs: 20 + Math.floor(Math.random() * 60) };
    if (++markedSeen > 2) return { status: 200 };
    killAllNow();
    return { stallMs: 60_000 };
  });
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

const arrivals = (id: string) => receiver.received.filter((r) => r.body?.payload?.id === id).length;

describe('worker processes killed mid-delivery', () => {
  it('lose nothing: every delivery arrives at least once and ends succeeded', async () => {
    const { token, accountId } = await signupAccount(api);
    const wh = (await api.post('/v1/webhooks', { token, body: { url: receiver.url, events: ['message.received'] } }))
      .body;
    await replaceWorkers();

    await transactWithEvents(t.deps, accountId, (_trx, emit) =>
      emit({ type: 'message.received', payload: { id: 'marked' } }),
    );
    for (let i = 0; i < EVENTS; i += 20) {
      await transactWithEvents(t.deps, accountId, async (_trx, emit) => {
        for (let j = i; j < i + 20; j++) await emit({ type: 'message.received', payload: { id: `e${j}` } });
      });
    }

    // Kill 1: the receiver kills the workers while the marked delivery is sent for the first time.
    await waitUntil(() => arrivals('marked') >= 1, 30_000, 'the marked delivery to arrive');
    await replaceWorkers();
    // Kill 2: again while it is sent again, after BullMQ put its stalled job back once.
    await waitUntil(() => arrivals('marked') >= 2, 30_000, 'the marked delivery to be sent again');
    await replaceWorkers();
    // Kills 3 and 4: whatever is in flight at the time.
    for (const share of [0.5, 0.8]) {
      await waitUntil(() => receiver.received.length >= EVENTS * share, 30_000, `${share * 100}% of the deliveries`);
      await replaceWorkers();
    }

    const rows = await waitUntil(
      async () => {
        const all = await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id });
        return all.every((d) => d.status === 'succeeded') && all;
      },
      60_000,
      'every delivery to succeed',
    );
    expect(rows).toHaveLength(EVENTS + 1);
    const arrived = new Set(receiver.received.map((r) => r.body.id));
    for (const d of rows) expect(arrived.has(d.id)).toBe(true);
    // The marked one: its first job stalled twice and BullMQ failed it; the sweep armed a new job, which
    // delivered it with the first recorded attempt. Usually that is job 2 on the third arrival; kills 3 and 4 may
    // land between a sweep's new job_seq and its add (job 3 then) or while job 2 sends it (one arrival more).
    const markedId = receiver.received.find((r) => r.body.payload.id === 'marked')!.body.id as string;
    const marked = rows.find((d) => d.id === markedId);
    expect(marked.attempts).toBe(1);
    expect(marked.job_seq).toBeGreaterThanOrEqual(2);
    expect(arrivals('marked')).toBeGreaterThanOrEqual(3);
    // One of its jobs stalled twice and was failed by BullMQ: usually job 1, but a kill between the commit and the
    // first enqueue leaves the sweep to add the first job the delivery ever had.
    const queue = t.deps.queues['webhook-delivery'];
    const jobs = await Promise.all(
      Array.from({ length: marked.job_seq }, (_, i) => queue.getJob(`${markedId}.${i + 1}`)),
    );
    expect(
      jobs.map((job) => job?.failedReason ?? '').filter((reason) => /stalled/.test(reason)).length,
    ).toBeGreaterThanOrEqual(1);

    const duplicates = receiver.received.length - arrived.size;
    console.info(
      `worker-kill: ${rows.length} deliveries, 4 kills, ${receiver.received.length} requests, ${duplicates} duplicates`,
    );
  }, 300_000);
});
