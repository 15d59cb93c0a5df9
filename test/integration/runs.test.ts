import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgentKey } from '../helpers/keys.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/wait.js';

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let runtime: Receiver;

const balance = async () =>
  Number((await t.deps.db('accounts').where({ id: owner.accountId }).first()).credits_balance);

async function newAgent(config: Record<string, unknown> = {}) {
  return (await api.post('/v1/agents', { token: owner.token, body: { name: 'Bot', config } })).body.id as string;
}

async function waitForRun(agentId: string, runId: string, token = owner.token, timeoutMs = 8000) {
  const res = await waitFor(
    () => api.get(`/v1/agents/${agentId}/runs/${runId}`, { token }),
    (r) => r.body.status === 'succeeded' || r.body.status === 'failed',
    { timeoutMs, what: `run ${runId} to finish` },
  );
  return res.body;
}

beforeAll(async () => {
  runtime = await startReceiver((req) => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reply: `echo: ${req.body?.message}` }),
  }));
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  api = client(t.url);
  await t.startWorkers();
  owner = await signupAccount(api);
});
afterAll(async () => {
  await t.close();
  await runtime.close();
});

describe('chat and runs', () => {
  it('answers 202 with a queued run, charges 5 credits, and the built-in runtime replies from autoReply', async () => {
    const agentId = await newAgent({ autoReply: 'We will get back to you.' });
    const start = await balance();
    const res = await api.post(`/v1/agents/${agentId}/chat`, {
      token: owner.token,
      body: { message: 'Where is my order?' },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      run: { id: expect.stringMatching(/^run_/), agentId, status: 'queued', createdAt: expect.any(String) },
    });
    expect(await balance()).toBe(start - 5);
    const run = await waitForRun(agentId, res.body.run.id);
    expect(run.status).toBe('succeeded');

    const conversations = await api.get(`/v1/agents/${agentId}/conversations`, { token: owner.token });
    const chat = conversations.body.data.find((c: { channel: string }) => c.channel === 'chat');
    expect(
      chat.recentMessages.map((m: { direction: string; text: string; runId: string }) => [
        m.direction,
        m.text,
        m.runId,
      ]),
    ).toEqual([
      ['inbound', 'Where is my order?', run.id],
      ['outbound', 'We will get back to you.', run.id],
    ]);
    const activity = await api.get(`/v1/agents/${agentId}/activity`, { token: owner.token });
    const kinds = activity.body.data.map((a: { kind: string }) => a.kind);
    expect(kinds).toEqual(expect.arrayContaining(['run.queued', 'run.succeeded']));
    const succeeded = activity.body.data.find((a: { kind: string }) => a.kind === 'run.succeeded');
    expect(succeeded.data.reply).toBe('We will get back to you.');
    const accountWide = await api.get(`/v1/activity?agentId=${agentId}`, { token: owner.token });
    expect(accountWide.body.data).toEqual(activity.body.data);
  });

  it('answers with a default text when no autoReply is configured', async () => {
    const agentId = await newAgent();
    const res = await api.post(`/v1/agents/${agentId}/chat`, { token: owner.token, body: { message: 'hi' } });
    const run = await waitForRun(agentId, res.body.run.id);
    const reply = await api.get(`/v1/messages?conversationId=${run.conversationId}&direction=outbound`, {
      token: owner.token,
    });
    expect(reply.body.data[0].text).toMatch(/automatic reply/);
  });

  it('posts the conversation to an HTTP runtime and stores its reply', async () => {
    const agentId = await newAgent({ runtime: { type: 'http', url: `${runtime.url}/agent` } });
    const res = await api.post(`/v1/agents/${agentId}/chat`, { token: owner.token, body: { message: 'ping' } });
    const run = await waitForRun(agentId, res.body.run.id);
    expect(run.status).toBe('succeeded');
    const req = runtime.received.find((r) => r.body?.runId === run.id)!;
    expect(req.path).toBe('/agent');
    expect(req.headers['user-agent']).toBe('Switchboard-Runtime/1');
    expect(req.body).toMatchObject({
      runId: run.id,
      agent: { id: agentId },
      message: 'ping',
      messages: [{ role: 'user', text: 'ping' }],
    });
    const replies = await api.get(`/v1/messages?conversationId=${run.conversationId}&direction=outbound`, {
      token: owner.token,
    });
    expect(replies.body.data[0]).toMatchObject({ text: 'echo: ping', runId: run.id, channel: 'chat' });

    // A second message carries the history.
    const next = await api.post(`/v1/agents/${agentId}/chat`, { token: owner.token, body: { message: 'again' } });
    const run2 = await waitForRun(agentId, next.body.run.id);
    const req2 = runtime.received.find((r) => r.body?.runId === run2.id)!;
    expect(req2.body.messages.map((m: { text: string }) => m.text)).toEqual(['ping', 'echo: ping', 'again']);
  });

  it('stores a long runtime reply whole (the 4 KiB cap is for webhook attempt records, not runtime answers)', async () => {
    const long = 'word '.repeat(4000).trim();
    const big = await startReceiver(() => ({ status: 200, body: JSON.stringify({ reply: long }) }));
    try {
      const agentId = await newAgent({ runtime: { type: 'http', url: big.url } });
      const res = await api.post(`/v1/agents/${agentId}/chat`, {
        token: owner.token,
        body: { message: 'tell me a long story' },
      });
      const run = await waitForRun(agentId, res.body.run.id);
      expect(run.status).toBe('succeeded');
      const replies = await api.get(`/v1/messages?conversationId=${run.conversationId}&direction=outbound`, {
        token: owner.token,
      });
      expect(replies.body.data[0].text).toBe(long);
    } finally {
      await big.close();
    }
  });

  it('fails the run (not retried) when the runtime answers without a reply', async () => {
    const bad = await startReceiver(() => ({ status: 200, body: 'not json' }));
    try {
      const agentId = await newAgent({ runtime: { type: 'http', url: bad.url } });
      const res = await api.post(`/v1/agents/${agentId}/chat`, { token: owner.token, body: { message: 'x' } });
      const run = await waitForRun(agentId, res.body.run.id);
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(/not JSON/);
      expect(bad.received).toHaveLength(1);
      const activity = await api.get(`/v1/agents/${agentId}/activity`, { token: owner.token });
      expect(activity.body.data[0]).toMatchObject({ kind: 'run.failed', subject: { type: 'run', id: run.id } });
    } finally {
      await bad.close();
    }
  });

  it('refuses a paused agent with 409 agent_paused and charges nothing', async () => {
    const agentId = await newAgent();
    await api.patch(`/v1/agents/${agentId}`, { token: owner.token, body: { status: 'paused' } });
    const start = await balance();
    const runsBefore = await t.deps.db('runs').where({ agent_id: agentId });
    const res = await api.post(`/v1/agents/${agentId}/chat`, { token: owner.token, body: { message: 'hello?' } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('agent_paused');
    expect(await balance()).toBe(start);
    expect(await t.deps.db('runs').where({ agent_id: agentId })).toEqual(runsBefore);
    expect(await t.deps.db('messages').where({ agent_id: agentId })).toHaveLength(0);
  });

  it('validates the body, answers 404 for unknown agents, and enforces trigger scopes and spend caps', async () => {
    const agentId = await newAgent();
    for (const body of [
      {},
      { message: '' },
      { message: 5 },
      { message: 'x', extra: 1 },
      { message: 'x'.repeat(100_001) },
    ]) {
      expect(
        (await api.post(`/v1/agents/${agentId}/chat`, { token: owner.token, body })).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect((await api.post('/v1/agents/agt_nope/chat', { token: owner.token, body: { message: 'x' } })).status).toBe(
      404,
    );

    const reader = await createAccountKey(api, owner.token, { scopes: ['read:agents'] });
    const noScope = await api.post(`/v1/agents/${agentId}/chat`, { token: reader.key, body: { message: 'x' } });
    expect(noScope.status).toBe(403);
    expect(noScope.body.error.details.requiredScope).toBe('trigger:agents');

    const agentKey = await createAgentKey(api, owner.token, agentId, { scopes: ['agent:trigger'] });
    const ok = await api.post(`/v1/agents/${agentId}/chat`, { token: agentKey.key, body: { message: 'from my key' } });
    expect(ok.status).toBe(202);
    const readOnlyAgentKey = await createAgentKey(api, owner.token, agentId);
    const denied = await api.post(`/v1/agents/${agentId}/chat`, {
      token: readOnlyAgentKey.key,
      body: { message: 'x' },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.requiredScope).toBe('agent:trigger');

    const capped = await createAccountKey(api, owner.token, { scopes: ['trigger:agents'], spendCapCredits: 7 });
    expect((await api.post(`/v1/agents/${agentId}/chat`, { token: capped.key, body: { message: '1' } })).status).toBe(
      202,
    );
    const start = await balance();
    const over = await api.post(`/v1/agents/${agentId}/chat`, { token: capped.key, body: { message: '2' } });
    expect(over.status).toBe(402);
    expect(over.body.error.code).toBe('spend_cap_exceeded');
    expect(await balance()).toBe(start);
    expect(await t.deps.db('messages').where({ agent_id: agentId, text: '2' })).toHaveLength(0);
  });
});
