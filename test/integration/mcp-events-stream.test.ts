import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, createAgentKey, ALL_AGENT_SCOPES } from '../helpers/keys.js';
import { connectMcp } from '../helpers/mcp.js';
import {
  isEventOf,
  isMethod,
  makeInbox,
  META_2026,
  openSse,
  VERSION_2026,
  type SseReader,
} from '../helpers/mcp-events.js';
import { waitUntil } from '../helpers/wait.js';

// MCP events, push mode (events/stream) end to end: the SDK client's stream in the initialize era, raw SSE in the
// stateless revision, heartbeats, reconnecting with a cursor, another agent's events kept out, the per-credential
// cap, and a key deactivated mid-stream.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentA: string;
let agentB: string;
let keyA: string;
let inboxA: Awaited<ReturnType<typeof makeInbox>>;
let inboxB: Awaited<ReturnType<typeof makeInbox>>;
const streams: SseReader[] = [];

const agentPath = (id: string) => `/v1/agents/${id}/mcp`;
const SID = 'io.modelcontextprotocol/subscriptionId';

/** A stateless-era events/stream over raw HTTP. */
async function statelessStream(path: string, token: string, params: Record<string, unknown>, id: number | string = 41) {
  const body = { jsonrpc: '2.0', id, method: 'events/stream', params: { ...params, _meta: META_2026 } };
  const headers = { 'mcp-protocol-version': VERSION_2026, 'mcp-method': 'events/stream' };
  const reader = await openSse(new URL(path, t.url).toString(), token, body, headers);
  streams.push(reader);
  return reader;
}

/** An initialize-era events/stream over raw HTTP (as the SDK's transport posts it). */
async function legacyStream(path: string, token: string, params: Record<string, unknown>, id: number | string = 9) {
  const body = { jsonrpc: '2.0', id, method: 'events/stream', params };
  const reader = await openSse(new URL(path, t.url).toString(), token, body);
  streams.push(reader);
  return reader;
}

beforeAll(async () => {
  t = await createTestContext(
    {},
    { tune: (c) => void Object.assign(c.mcp.events, { heartbeatMs: 400, streamsPerCredential: 2 }) },
  );
  api = client(t.url);
  owner = await signupAccount(api);
  agentA = await createAgent(t, owner.accountId, 'Alpha');
  agentB = await createAgent(t, owner.accountId, 'Beta');
  keyA = (await createAgentKey(api, owner.token, agentA, { scopes: ALL_AGENT_SCOPES })).key;
  inboxA = await makeInbox(api, owner.token, agentA, 'alpha@agents.example.com');
  inboxB = await makeInbox(api, owner.token, agentB, 'beta@agents.example.com');
});
afterAll(async () => {
  for (const s of streams) s.abort();
  // As the listen test does: a connection whose stream the client aborted is not idle to the server's close.
  const closing = t.close();
  t.server.server.closeAllConnections();
  await closing;
});

describe('MCP events: events/stream', () => {
  it('delivers events and heartbeats to the SDK client, each with its cursor and subscription id', async () => {
    const conn = await connectMcp(t.url, agentPath(agentA), keyA);
    const notes: any[] = [];
    conn.client.fallbackNotificationHandler = async (n) => void notes.push(n);
    const pending = conn.client
      .request({ method: 'events/stream', params: { name: 'message.received' } } as never, z.looseObject({}), {
        timeout: 120_000,
      })
      .catch((err: Error) => err);
    const active = await waitUntil(
      () => notes.find((n) => n.method === 'notifications/events/active'),
      10_000,
      'active',
    );
    expect(active.params).toMatchObject({ truncated: false });
    expect(typeof active.params.cursor).toBe('string');
    const msg = await inboxA.receive('sdk@example.com', 'to the stream');
    const event = await waitUntil(
      () => notes.find((n) => n.method === 'notifications/events/event'),
      10_000,
      'the event',
    );
    expect(event.params).toMatchObject({ name: 'message.received', data: { id: msg.id } });
    expect(typeof event.params.cursor).toBe('string');
    expect(event.params._meta[SID]).toBe(active.params._meta[SID]);
    const beat = await waitUntil(
      () => notes.find((n) => n.method === 'notifications/events/heartbeat'),
      10_000,
      'a heartbeat',
    );
    expect(typeof beat.params.cursor).toBe('string');
    await conn.close();
    await pending;
  });

  it('replays what was missed when a stateless-era stream reconnects with its cursor', async () => {
    const first = await statelessStream(agentPath(agentA), keyA, { name: 'message.received', cursor: null });
    expect(first.contentType).toContain('text/event-stream');
    const active = await first.next(isMethod('active'));
    expect(active.params._meta[SID]).toBe(41);
    const one = await inboxA.receive('re@example.com', 'one');
    const seen = await first.next(isEventOf(one.id));
    first.abort();
    const two = await inboxA.receive('re@example.com', 'two');
    const three = await inboxA.receive('re@example.com', 'three');
    const again = await statelessStream(agentPath(agentA), keyA, {
      name: 'message.received',
      cursor: seen.params.cursor,
    });
    await again.next(isEventOf(three.id));
    const ids = again.messages.filter(isMethod('event')).map((m) => m.params.data.id);
    expect(ids).toEqual([two.id, three.id]);
    again.abort();
  });

  it("keeps agent B's events off agent A's stream, and refuses A's key on B's endpoint", async () => {
    const s = await legacyStream(agentPath(agentA), keyA, { name: 'message.received' });
    await s.next(isMethod('active'));
    await inboxB.receive('x@example.com', 'for beta');
    const sentinel = await inboxA.receive('x@example.com', 'for alpha');
    await s.next(isEventOf(sentinel.id));
    expect(s.messages.filter(isMethod('event')).map((m) => m.params.data.agentId)).toEqual([agentA]);
    s.abort();
    const refused = await api.post(agentPath(agentB), {
      token: keyA,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 6, method: 'events/stream', params: { name: 'message.received' } },
    });
    expect(refused.status).toBe(403);
  });

  it('answers a refused subscription as a JSON-RPC error without opening a stream', async () => {
    const res = await api.post(agentPath(agentA), {
      token: keyA,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 3, method: 'events/stream', params: { name: 'no.such' } },
    });
    expect(res.body.error).toMatchObject({ code: -32011, data: { kind: 'event' } });
    const bad = await api.post(agentPath(agentA), {
      token: keyA,
      body: { jsonrpc: '2.0', id: 4, method: 'events/stream', params: { name: 'message.received', cursor: 'x' } },
    });
    expect(bad.body.error).toMatchObject({ code: -32602 });
  });

  it('holds at most the configured streams per credential, and frees a slot when a stream is aborted', async () => {
    const key = (await createAgentKey(api, owner.token, agentB, { scopes: ALL_AGENT_SCOPES })).key;
    const s1 = await legacyStream(agentPath(agentB), key, { name: 'message.received' });
    const s2 = await legacyStream(agentPath(agentB), key, { name: 'message.sent' });
    await s1.next(isMethod('active'));
    await s2.next(isMethod('active'));
    const third = () =>
      api.post(agentPath(agentB), {
        token: key,
        body: { jsonrpc: '2.0', id: 5, method: 'events/stream', params: { name: 'message.received' } },
      });
    expect((await third()).body.error).toMatchObject({ code: -32013, data: { limit: 'streams', max: 2 } });
    s1.abort();
    const opened = await waitUntil(
      async () => {
        const s = await legacyStream(agentPath(agentB), key, { name: 'message.received' });
        if (s.status === 200 && s.contentType?.includes('text/event-stream')) return s;
        s.abort();
        return null;
      },
      10_000,
      'a freed slot',
    );
    await opened.next(isMethod('active'));
    opened.abort();
    s2.abort();
  });

  it('terminates a stream with -32012 when its key is deactivated, and refuses the key afterwards', async () => {
    const made = await createAccountKey(api, owner.token, { scopes: ['read:messages', 'read:api_keys'] });
    const s = await statelessStream('/v1/mcp', made.key, { name: 'message.received' });
    await s.next(isMethod('active'));
    const res = await api.post(`/v1/api_keys/${made.id}/deactivate`, { token: owner.token });
    expect(res.status).toBeLessThan(300);
    const terminated = await s.next(isMethod('terminated'));
    expect(terminated.params.error).toMatchObject({ code: -32012, message: 'Forbidden' });
    await s.closed;
    expect(s.messages.at(-1)).toMatchObject({ id: 41, result: { resultType: 'complete' } });
    const poll = await api.post('/v1/mcp', {
      token: made.key,
      body: { jsonrpc: '2.0', id: 1, method: 'events/poll', params: { name: 'message.received' } },
    });
    expect(poll.status).toBe(401);
  });
});
