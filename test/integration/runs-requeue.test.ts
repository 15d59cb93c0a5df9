import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requeueStuckWorkProcessor } from '../../workers/requeue-stuck-work.js';
import { executeRun } from '../../src/runs/run-executor.js';
import { startReceiver } from '../helpers/receiver.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';

// A run or message committed as queued whose job never reached Redis is enqueued again by the sweep.

let t: TestContext;
let api: Client;

beforeAll(async () => {
  t = await createTestContext(
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    { tune: (config) => void (config.runtime.timeoutMs = 300) },
  );
  api = client(t.url);
});
afterAll(() => t.close());

describe('requeue-stuck-work sweep', () => {
  it('gives up on a runtime slower than its timeout: retried, then failed on the last attempt', async () => {
    const slow = await startReceiver(() => ({ stallMs: 3000, status: 200, body: '{"reply":"late"}' }));
    try {
      const owner = await signupAccount(api);
      const agentId = (
        await api.post('/v1/agents', {
          token: owner.token,
          body: { name: 'Slow', config: { runtime: { type: 'http', url: slow.url } } },
        })
      ).body.id;
      const runId = (await api.post(`/v1/agents/${agentId}/chat`, { token: owner.token, body: { message: 'x' } })).body
        .run.id;
      await t.deps.queues['agent-runs'].remove(runId); // driven by hand below, not by a worker
      // The runtime answers after 3 s: an attempt that waited for it would succeed with the late reply.
      await expect(executeRun(t.deps, runId, { last: false })).rejects.toThrow(/timeout/);
      expect((await api.get(`/v1/agents/${agentId}/runs/${runId}`, { token: owner.token })).body.status).toBe(
        'running',
      );
      expect(await executeRun(t.deps, runId, { last: true })).toBe('failed');
      const run = (await api.get(`/v1/agents/${agentId}/runs/${runId}`, { token: owner.token })).body;
      expect(run).toMatchObject({ status: 'failed', replyMessageId: null });
      expect(run.error).toMatch(/timeout/);
      expect(await executeRun(t.deps, runId, { last: true })).toBe('skipped');
    } finally {
      await slow.close();
    }
  });

  it('re-enqueues queued runs and messages that lost their job, once, and leaves fresh ones alone', async () => {
    const owner = await signupAccount(api);
    const agentId = (await api.post('/v1/agents', { token: owner.token, body: { name: 'R' } })).body.id;
    const inbox = (
      await api.post('/v1/inboxes', {
        token: owner.token,
        body: { agentId, channel: 'email', address: 'r@agents.example.com' },
      })
    ).body;
    const runId = (await api.post(`/v1/agents/${agentId}/chat`, { token: owner.token, body: { message: 'x' } })).body
      .run.id;
    const freshRunId = (await api.post(`/v1/agents/${agentId}/chat`, { token: owner.token, body: { message: 'y' } }))
      .body.run.id;
    const msgId = (
      await api.post('/v1/messages', {
        token: owner.token,
        body: { inboxId: inbox.id, to: 'c@example.com', text: 'x' },
      })
    ).body.id;
    expect((await api.post(`/v1/messages/${msgId}/send`, { token: owner.token })).status).toBe(202);

    // Simulate a lost advance: the jobs vanish from Redis while the rows stay queued, a while ago.
    await t.deps.queues['agent-runs'].remove(runId);
    await t.deps.queues['agent-runs'].remove(freshRunId);
    await t.deps.queues['message-send'].remove(msgId);
    expect(await t.deps.queues['agent-runs'].getJob(runId)).toBeUndefined();
    await t.deps
      .db('runs')
      .where({ id: runId })
      .update({ created_at: new Date(Date.now() - 5 * 60_000) });
    await t.deps
      .db('messages')
      .where({ id: msgId })
      .update({ updated_at: new Date(Date.now() - 5 * 60_000) });

    const result = await requeueStuckWorkProcessor.process(t.deps, {}, {} as Job);
    expect(result).toEqual({ runs: 1, messages: 1 });
    expect((await t.deps.queues['agent-runs'].getJob(runId))?.data).toEqual({ runId });
    expect((await t.deps.queues['message-send'].getJob(msgId))?.data).toEqual({ messageId: msgId });
    expect(await t.deps.queues['agent-runs'].getJob(freshRunId)).toBeUndefined();

    // A second sweep finds the same rows but the job ids already exist: still one job each.
    await requeueStuckWorkProcessor.process(t.deps, {}, {} as Job);
    expect(await t.deps.queues['agent-runs'].getJobCountByTypes('waiting', 'delayed', 'active')).toBe(1);

    // And the workers then finish them.
    await t.startWorkers();
    const run = await waitFor(
      async () => (await api.get(`/v1/agents/${agentId}/runs/${runId}`, { token: owner.token })).body,
      (r) => r.status === 'succeeded',
      { what: 'the requeued run to succeed' },
    );
    expect(run.status).toBe('succeeded');
  });
});
