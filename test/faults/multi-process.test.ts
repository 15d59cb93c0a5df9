import type { ChildProcess } from 'node:child_process';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../src/platform/config.js';
import { schedules } from '../../workers/schedules.js';
import { spawnApiProcess } from '../helpers/api-child.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey } from '../helpers/keys.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitUntil } from '../helpers/wait.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { killHard, spawnWorkerProcess } from '../helpers/worker-child.js';

// Two API processes (src/web.ts) and two worker processes (each with the job schedulers) on one database and
// one Redis behave as one service: deliveries are shared by both workers and each request a receiver saw is
// one attempt row; a key revoked through one API is refused by the other on the next request; a subscription
// exhausted in both workers at once is disabled once, with one notification and one email; and each sweep runs
// once per interval, also after every scheduler was lost and both processes re-created them at the same time.

const SWEEP_MS = 400;
const CONTACTS = 60;
const FAILING = 24;

let t: TestContext;
let smtp: SmtpSink;
let receiver: Receiver;
let apis: Client[];
let children: ChildProcess[] = [];

beforeAll(async () => {
  smtp = await startSmtpSink();
  const env: Env = {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '150,300',
    WEBHOOK_DISABLE_AFTER: '8',
    // Few deliveries in flight per process, so that both worker processes take part in every burst.
    QUEUE_CONCURRENCY: 'webhook-delivery=4',
    SCHEDULE_INTERVALS_MS: [...schedules.map((s) => `${s.id}=${SWEEP_MS}`), 'check-schedulers=200'].join(','),
    SMTP_URL: smtp.url,
  };
  // This process only observes (database rows, BullMQ's jobs); the four children are the service.
  t = await createTestContext(env);
  const firstSeen = new Set<string>();
  receiver = await startReceiver((r) => {
    // A failing receiver that takes a moment, so one process's few delivery slots cannot take every attempt.
    if (r.path === '/down') return { status: 500, stallMs: 20 };
    // The first arrival of every fifth contact's event fails: its retry is a delayed job any worker may take.
    const n = Number(String(r.body?.payload?.name).replace('Contact ', ''));
    if (n % 5 === 0 && !firstSeen.has(r.body.id)) {
      firstSeen.add(r.body.id);
      return { status: 500 };
    }
    return { stallMs: 10 + Math.floor(Math.random() * 20) };
  });
  const workers = [spawnWorkerProcess(t, env, { schedule: true }), spawnWorkerProcess(t, env, { schedule: true })];
  children = workers.map((w) => w.proc);
  const started = await Promise.all([spawnApiProcess(t, env), spawnApiProcess(t, env), ...workers.map((w) => w.ready)]);
  const [api1, api2] = started as [{ url: string; proc: ChildProcess }, { url: string; proc: ChildProcess }];
  children.push(api1.proc, api2.proc);
  apis = [client(api1.url), client(api2.url)];
}, 300_000);
afterAll(async () => {
  await Promise.all(children.map(killHard));
  await receiver?.close();
  await smtp?.close();
  await t?.close();
});

/** Creates `n` contacts for `token`, alternating between the two API processes, six at a time. */
async function createContacts(token: string, n: number): Promise<void> {
  for (let i = 1; i <= n; i += 6) {
    const batch = Array.from({ length: Math.min(6, n - i + 1) }, (_, k) => i + k);
    const statuses = await Promise.all(
      batch.map(
        async (c) =>
          (
            await apis[c % 2]!.post('/v1/contacts', {
              token,
              body: { name: `Contact ${c}`, email: `c${c}@example.com` },
            })
          ).status,
      ),
    );
    expect(statuses.every((s) => s === 201)).toBe(true);
  }
}

/** The completed delivery jobs of these deliveries, by delivery id (job id = `<delivery id>.<job_seq>`). */
async function deliveryJobs(deliveryIds: Set<string>): Promise<Job[]> {
  const done = await t.deps.queues['webhook-delivery'].getJobs(['completed'], 0, 999);
  return done.filter((j) => deliveryIds.has(String(j.id).split('.')[0]!));
}

describe('two API processes and two worker processes', () => {
  it('deliver every event, shared by both workers, with one attempt row per request the receiver saw', async () => {
    const owner = await signupAccount(apis[0]!);
    const wh = (
      await apis[1]!.post('/v1/webhooks', {
        token: owner.token,
        body: { url: `${receiver.url}/ok`, events: ['contact.created'] },
      })
    ).body;
    await createContacts(owner.token, CONTACTS);

    const rows = await waitUntil(
      async () => {
        const all = await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id });
        return all.length === CONTACTS && all.every((d) => d.status === 'succeeded') && all;
      },
      30_000,
      'every delivery to succeed',
    );
    const attempts = await t.deps.db('webhook_attempts').where({ webhook_id: wh.id }).orderBy('attempt_number');
    for (const d of rows) {
      const arrivals = receiver.received.filter((r) => r.body?.id === d.id);
      const recorded = attempts.filter((a) => a.delivery_id === d.id);
      // Nothing crashed, so no at-least-once window opened: each request is one attempt row, numbered in order.
      expect(recorded.map((a) => a.attempt_number)).toEqual(arrivals.map((_, i) => i + 1));
      expect(recorded.map((a) => a.response_status)).toEqual(arrivals.length === 2 ? [500, 200] : [200]);
    }
    expect(receiver.received.filter((r) => r.path === '/ok')).toHaveLength(CONTACTS + CONTACTS / 5);
    const by = new Set((await deliveryJobs(new Set(rows.map((d) => d.id)))).map((j) => j.processedBy));
    expect(by.size).toBe(2);
  }, 300_000);

  it('refuse a key revoked through one API on the very next request to the other', async () => {
    const owner = await signupAccount(apis[0]!);
    const [api1, api2] = apis as [Client, Client];
    const a = await createAccountKey(api1, owner.token);
    const b = await createAccountKey(api1, owner.token);
    for (const api of apis)
      for (const key of [a.key, b.key]) expect((await api.get('/v1/account', { token: key })).status).toBe(200);

    expect((await api1.post(`/v1/api_keys/${a.id}/deactivate`, { token: owner.token })).status).toBe(200);
    expect((await api2.get('/v1/account', { token: a.key })).body.error.code).toBe('key_deactivated');
    expect((await api2.delete(`/v1/api_keys/${b.id}`, { token: owner.token })).status).toBe(204);
    expect((await api1.get('/v1/account', { token: b.key })).body.error.code).toBe('invalid_credential');
  });

  it('disable a subscription exhausted in both workers at once exactly once, with one notification and one email', async () => {
    const owner = await signupAccount(apis[1]!);
    const wh = (
      await apis[0]!.post('/v1/webhooks', {
        token: owner.token,
        body: { url: `${receiver.url}/down`, events: ['contact.created'] },
      })
    ).body;
    await createContacts(owner.token, FAILING);

    const rows = await waitUntil(
      async () => {
        const all = await t.deps.db('webhook_deliveries').where({ webhook_id: wh.id });
        return all.length === FAILING && all.every((d) => d.status !== 'pending') && all;
      },
      30_000,
      'every delivery to end',
    );
    // The jobs that recorded a final state may still be sending their email: wait until no delivery job runs.
    await waitUntil(
      async () => (await t.deps.queues['webhook-delivery'].getActiveCount()) === 0,
      30_000,
      'delivery jobs to finish',
    );

    const subscription = await t.deps.db('webhooks').where({ id: wh.id }).first();
    expect(subscription.status).toBe('disabled');
    const exhausted = rows.filter((d) => d.status === 'exhausted');
    expect(exhausted.length).toBeGreaterThanOrEqual(8);
    const exhaustedBy = new Set(
      (await deliveryJobs(new Set(exhausted.map((d) => d.id))))
        .filter((j) => {
          const d = exhausted.find((e) => String(j.id) === `${e.id}.${e.job_seq}`);
          return d !== undefined;
        })
        .map((j) => j.processedBy),
    );
    expect(exhaustedBy.size).toBe(2);
    const notices = await t.deps.db('notifications').where({ account_id: owner.accountId, kind: 'webhook.disabled' });
    expect(notices).toHaveLength(1);
    expect(smtp.received.filter((m) => m.to.includes(owner.email))).toHaveLength(1);
  }, 300_000);

  it('run each sweep once per interval, also after both processes re-created the lost schedulers at once', async () => {
    const maintenance = t.deps.queues.maintenance;
    /**
     * Each sweep's completed runs scheduled since `since`, by job name (so a second scheduler or timer running the
     * same sweep would show), with their scheduled time (the millis of a scheduler's job id `repeat:<id>:<millis>`).
     */
    const runsSince = async (since: number) => {
      const done = await maintenance.getJobs(['completed'], 0, 999);
      const byId = new Map<string, { at: number; by: string | undefined }[]>(schedules.map((s) => [s.job.name, []]));
      for (const j of done) {
        const at = Number(/:(\d+)$/.exec(String(j.id))?.[1] ?? j.timestamp);
        if (at >= since) byId.get(j.name)?.push({ at, by: j.processedBy });
      }
      for (const runs of byId.values()) runs.sort((x, y) => x.at - y.at);
      return byId;
    };
    const expectOncePerInterval = async (since: number) => {
      const RUNS = 6;
      const byId = await waitUntil(
        async () => {
          const r = await runsSince(since);
          return [...r.values()].every((runs) => runs.length >= RUNS) && r;
        },
        30_000,
        `${RUNS} runs of every sweep`,
      );
      for (const [id, runs] of byId) {
        const gaps = runs.slice(1).map((r, i) => r.at - runs[i]!.at);
        // One chain of runs per scheduler: consecutive runs are at least an interval apart (late runs skip a slot,
        // they never double up), so there are never more runs than the slots they span. Whole intervals are not
        // asserted: on a loaded machine a run late past the watcher's bound is upserted again, which starts the
        // chain anew at that moment.
        expect(
          gaps.every((g) => g >= SWEEP_MS),
          `${id} gaps ${gaps.join(',')}`,
        ).toBe(true);
      }
      return new Set([...byId.values()].flat().map((r) => r.by));
    };

    const ranBy = await expectOncePerInterval(Date.now());
    expect(ranBy.size).toBe(2);

    // Redis loses the schedulers (a restart without its data): both processes' watchers re-create them.
    for (const s of schedules) await maintenance.removeJobScheduler(s.id);
    const lost = Date.now();
    await waitUntil(
      async () => (await maintenance.getJobSchedulers()).length === schedules.length,
      30_000,
      'the schedulers to be re-created',
    );
    await expectOncePerInterval(lost);
  }, 300_000);
});
