import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount } from '../helpers/http.js';
import { enqueue, jobs } from '../../src/platform/queues.js';
import { QueueEvents } from 'bullmq';
import { createWorkerRedis } from '../../src/platform/redis.js';
import { waitUntil } from '../helpers/wait.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('maintenance queue', () => {
  it('registers job schedulers when workers start', async () => {
    const workers = await t.startWorkers({ schedule: true });
    const schedulers = await t.deps.queues.maintenance.getJobSchedulers();
    expect(schedulers.map((s) => s.key)).toContain('sweep-expired-sessions');
    await workers.close();
  });

  it('sweeps expired sessions through a real worker and keeps live ones', async () => {
    const api = client(t.url);
    const expired = await signupAccount(api);
    const live = await signupAccount(api);
    await t.deps
      .db('sessions')
      .where({ user_id: expired.userId })
      .update({ expires_at: new Date(Date.now() - 60_000) });

    const connection = createWorkerRedis(t.deps.config.redis.url);
    const events = new QueueEvents('maintenance', { connection, prefix: t.deps.config.bullmqPrefix });
    await events.waitUntilReady();
    await t.startWorkers();
    // Scheduled maintenance jobs left by the previous test may complete first: wait for this job by its id.
    const done = new Promise<unknown>((resolve) =>
      events.on('completed', ({ jobId, returnvalue }) => {
        if (jobId === 'sweep-sessions-test') resolve(returnvalue);
      }),
    );
    await enqueue(t.deps.queues, t.deps.config, jobs.sweepExpiredSessions, {}, { jobId: 'sweep-sessions-test' });
    expect(await done).toEqual({ deleted: 1 });
    await events.close();
    connection.disconnect();

    expect(await t.deps.db('sessions').where({ user_id: expired.userId })).toHaveLength(0);
    expect(await t.deps.db('sessions').where({ user_id: live.userId })).toHaveLength(1);
  });

  it('gives a scheduler whose next run was lost a next run again (Redis failed as a run started)', async () => {
    const c = await createTestContext({ SCHEDULE_INTERVALS_MS: 'relay-outbox=1000,check-schedulers=200' });
    const workers = await c.startWorkers({ schedule: true });
    const queue = c.deps.queues.maintenance;
    try {
      // BullMQ adds a scheduler's next job after a run is taken; remove it, as if Redis had failed in between.
      const next = await waitUntil(
        async () => {
          const scheduler = await queue.getJobScheduler('relay-outbox');
          const job = scheduler?.next ? await queue.getJob(`repeat:relay-outbox:${scheduler.next}`) : undefined;
          return job && (await job.getState()) === 'delayed' && job;
        },
        30_000,
        'the next relay-outbox run to be scheduled',
      );
      const removedAt = Date.now();
      // BullMQ refuses to remove a scheduler's job, so it goes the way Redis would lose it: key and delayed entry.
      const key = `${c.deps.config.bullmqPrefix}:maintenance`;
      await c.deps.redis.zrem(`${key}:delayed`, next.id!);
      await c.deps.redis.del(`${key}:${next.id!}`);
      expect(await queue.getJob(next.id!)).toBeUndefined();

      await waitUntil(
        async () => {
          const done = await queue.getJobs(['completed'], 0, 500);
          return done.some((j) => j.name === 'relay-outbox' && (j.processedOn ?? 0) > removedAt);
        },
        30_000,
        'relay-outbox to run again',
      );
    } finally {
      await workers.close();
      await c.close();
    }
  });

  it('refuses a job payload that does not match the catalog', async () => {
    await expect(enqueue(t.deps.queues, t.deps.config, jobs.sendMessage, { messageId: 1 } as never)).rejects.toThrow();
    await expect(
      enqueue(t.deps.queues, t.deps.config, jobs.deliverWebhook, { deliveryId: 'x', url: 'https://a' } as never),
    ).rejects.toThrow();
  });
});
