import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAccountKey, createAgent, createAgentKey, ALL_AGENT_SCOPES } from '../helpers/keys.js';
import { connectMcp, type McpConnection } from '../helpers/mcp.js';
import { eventWakeupChannel } from '../../src/events/event-wakeup.js';
import { waitUntil } from '../helpers/wait.js';
import { makeInbox, sdkError, sdkRequest, statelessPost } from '../helpers/mcp-events.js';

// MCP events, poll mode and events/list, end to end: real inbound messages through the REST API, read back with
// the SDK client (initialize era) and raw stateless POSTs (2026-07-28), on both endpoints.

let t: TestContext;
let api: Client;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentA: string;
let agentB: string;
let keyA: string;
let keyB: string;
let accountKey: string;
let inboxA: Awaited<ReturnType<typeof makeInbox>>;
let inboxB: Awaited<ReturnType<typeof makeInbox>>;
const open: McpConnection[] = [];

async function connect(path: string, token: string) {
  const conn = await connectMcp(t.url, path, token);
  open.push(conn);
  return conn;
}
const agentPath = (id: string) => `/v1/agents/${id}/mcp`;

beforeAll(async () => {
  t = await createTestContext({}, { tune: (c) => void (c.mcp.events.pollTimeoutMs = 8000) });
  api = client(t.url);
  owner = await signupAccount(api);
  agentA = await createAgent(t, owner.accountId, 'Alpha');
  agentB = await createAgent(t, owner.accountId, 'Beta');
  keyA = (await createAgentKey(api, owner.token, agentA, { scopes: ALL_AGENT_SCOPES })).key;
  keyB = (await createAgentKey(api, owner.token, agentB, { scopes: ALL_AGENT_SCOPES })).key;
  accountKey = (await createAccountKey(api, owner.token, { scopes: ['read:messages', 'read:agents'] })).key;
  inboxA = await makeInbox(api, owner.token, agentA, 'alpha@agents.example.com');
  inboxB = await makeInbox(api, owner.token, agentB, 'beta@agents.example.com');
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await t.close();
});

describe('MCP events: capability and events/list', () => {
  it('declares events on both endpoints, to the SDK client and in server/discover', async () => {
    for (const [path, key] of [
      ['/v1/mcp', accountKey],
      [agentPath(agentA), keyA],
    ] as const) {
      const conn = await connect(path, key);
      expect(conn.client.getServerCapabilities()?.experimental).toMatchObject({ events: { listChanged: true } });
      const discover = await statelessPost(api, path, key, 'server/discover', {});
      expect(discover.body.result.capabilities).toMatchObject({ events: { listChanged: true } });
    }
  });

  it("lists the account key's readable types, with the same payloadSchema as GET /v1/event-types", async () => {
    const conn = await connect('/v1/mcp', accountKey);
    const { events, nextCursor } = await sdkRequest(conn, 'events/list');
    expect(nextCursor).toBeUndefined();
    expect(events.map((e: any) => e.name)).toEqual([
      'agent.updated',
      'message.drafted',
      'message.received',
      'message.sent',
    ]);
    const received = events.find((e: any) => e.name === 'message.received');
    expect(received.delivery).toEqual(['poll', 'push']);
    expect(Object.keys(received.inputSchema.properties).sort()).toEqual([
      'agentId',
      'conversationId',
      'from',
      'inboxId',
    ]);
    const types = (await api.get('/v1/event-types', { token: owner.token })).body.data;
    expect(received.payloadSchema).toEqual(types.find((x: any) => x.name === 'message.received').payloadSchema);
  });

  it('pages a session through every type, and lists only its own agent-scoped types on the per-agent endpoint', async () => {
    const conn = await connect('/v1/mcp', owner.token);
    const first = await sdkRequest(conn, 'events/list');
    expect(first.events).toHaveLength(10);
    const second = await sdkRequest(conn, 'events/list', { cursor: first.nextCursor });
    expect(first.events.length + second.events.length).toBeGreaterThan(12);
    expect((await sdkError(conn, 'events/list', { cursor: 'nope' }))?.code).toBe(-32602);

    const agent = await connect(agentPath(agentA), keyA);
    const names = (await sdkRequest(agent, 'events/list')).events.map((e: any) => e.name);
    expect(names).toContain('message.received');
    expect(names).toContain('agent.updated');
    expect(names).not.toContain('contact.created');
    expect(names).not.toContain('billing.credits_low');
  });
});

describe('MCP events: events/poll', () => {
  it('starts from now, then long-polls until an inbound message arrives, on the per-agent endpoint', async () => {
    const conn = await connect(agentPath(agentA), keyA);
    const start = await sdkRequest(conn, 'events/poll', { name: 'message.received', arguments: {}, cursor: null });
    expect(start).toMatchObject({ events: [], truncated: false, hasMore: false });
    expect(typeof start.cursor).toBe('string');
    const waiting = sdkRequest(conn, 'events/poll', {
      name: 'message.received',
      cursor: start.cursor,
      timeoutMs: 8000,
    });
    const msg = await inboxA.receive('someone@example.com', 'hello there');
    const got = await waiting;
    expect(got.events).toHaveLength(1);
    expect(got.events[0]).toMatchObject({ name: 'message.received', data: { id: msg.id, agentId: agentA } });
    expect(typeof got.events[0].eventId).toBe('string');
    expect(got.nextPollMs).toBeGreaterThan(0);
    // From the returned cursor nothing is repeated: the next event is the next message.
    const next = sdkRequest(conn, 'events/poll', { name: 'message.received', cursor: got.cursor, timeoutMs: 8000 });
    const msg2 = await inboxA.receive('someone@example.com', 'second');
    expect((await next).events.map((e: any) => e.data.id)).toEqual([msg2.id]);
  });

  it("never shows agent B's messages to agent A's key, nor its cursor", async () => {
    const connA = await connect(agentPath(agentA), keyA);
    const connB = await connect(agentPath(agentB), keyB);
    const startA = await sdkRequest(connA, 'events/poll', { name: 'message.received', cursor: null });
    const startB = await sdkRequest(connB, 'events/poll', { name: 'message.received', cursor: null });
    await inboxB.receive('x@example.com', 'for beta');
    const sentinel = await inboxA.receive('x@example.com', 'sentinel for alpha');
    const seenA = await sdkRequest(connA, 'events/poll', { name: 'message.received', cursor: startA.cursor });
    expect(seenA.events.map((e: any) => e.data.id)).toEqual([sentinel.id]);
    const seenB = await sdkRequest(connB, 'events/poll', { name: 'message.received', cursor: startB.cursor });
    expect(seenB.events.map((e: any) => e.data.agentId)).toEqual([agentB]);
    // A's cursor on B's endpoint, with B's key: another subscription's.
    expect((await sdkError(connB, 'events/poll', { name: 'message.received', cursor: startA.cursor }))?.code).toBe(
      -32602,
    );
    // A's key on B's endpoint is refused before MCP.
    const res = await statelessPost(api, agentPath(agentB), keyA, 'events/poll', { name: 'message.received' });
    expect(res.status).toBe(403);
  });

  it("filters by arguments and refuses what does not fit, with the sketch's codes", async () => {
    const conn = await connect('/v1/mcp', accountKey);
    const start = await sdkRequest(conn, 'events/poll', {
      name: 'message.received',
      arguments: { inboxId: inboxB.id },
      cursor: null,
    });
    await inboxA.receive('y@example.com', 'not this inbox');
    const wanted = await inboxB.receive('y@example.com', 'this inbox');
    const got = await sdkRequest(conn, 'events/poll', {
      name: 'message.received',
      arguments: { inboxId: inboxB.id },
      cursor: start.cursor,
    });
    expect(got.events.map((e: any) => e.data.id)).toEqual([wanted.id]);

    const err = (params: Record<string, unknown>) => sdkError(conn, 'events/poll', params);
    expect(await err({ name: 'message.received', arguments: { colour: 'red' } })).toMatchObject({ code: -32602 });
    expect(await err({ name: 'message.received', arguments: { inboxId: 5 } })).toMatchObject({ code: -32602 });
    expect(await err({ name: 'nothing.happened' })).toMatchObject({ code: -32011, data: { kind: 'event' } });
    expect(await err({ name: 'contact.created' })).toMatchObject({ code: -32012 });
    expect(await err({ name: 'message.received', cursor: 'garbage!' })).toMatchObject({ code: -32602 });
    expect(await err({ name: 'message.received', cursor: 'eyJ2IjoxfQ' })).toMatchObject({ code: -32602 });
    // Another subscription's cursor: same credential, other arguments.
    const otherArgs = { name: 'message.received', arguments: { inboxId: inboxA.id }, cursor: got.cursor };
    expect(await err(otherArgs)).toMatchObject({ code: -32602, data: { field: 'cursor' } });
    expect(await err({ name: 'message.sent', cursor: got.cursor })).toMatchObject({ code: -32602 });
    expect(await err({ name: 'message.received', timeoutMs: -1 })).toMatchObject({ code: -32602 });
  });

  it("answers the stateless era the same, and refuses another account's cursor", async () => {
    const start = await statelessPost(api, '/v1/mcp', accountKey, 'events/poll', {
      name: 'message.received',
      cursor: null,
    });
    expect(start.status).toBe(200);
    expect(start.body.result).toMatchObject({ events: [], resultType: 'complete' });
    const msg = await inboxA.receive('z@example.com', 'stateless');
    const got = await statelessPost(api, '/v1/mcp', accountKey, 'events/poll', {
      name: 'message.received',
      cursor: start.body.result.cursor,
    });
    expect(got.body.result.events.map((e: any) => e.data.id)).toEqual([msg.id]);
    const list = await statelessPost(api, '/v1/mcp', accountKey, 'events/list', {});
    expect(list.body.result.events.length).toBeGreaterThan(0);

    const other = await signupAccount(api, 'Other');
    const otherKey = (await createAccountKey(api, other.token, { scopes: ['read:messages'] })).key;
    const foreign = await statelessPost(api, '/v1/mcp', otherKey, 'events/poll', {
      name: 'message.received',
      cursor: got.body.result.cursor,
    });
    expect(foreign.body.error).toMatchObject({ code: -32602 });
    // The other account sees none of this account's messages: its poll from now gets only its own sentinel.
    const otherAgent = await createAgent(t, other.accountId, 'Theirs');
    const theirInbox = await makeInbox(api, other.token, otherAgent, 'theirs@agents.example.com');
    const otherStart = await statelessPost(api, '/v1/mcp', otherKey, 'events/poll', { name: 'message.received' });
    await inboxA.receive('z@example.com', 'not theirs');
    const theirs = await theirInbox.receive('z@example.com', 'theirs');
    const seen = await statelessPost(api, '/v1/mcp', otherKey, 'events/poll', {
      name: 'message.received',
      cursor: otherStart.body.result.cursor,
    });
    expect(seen.body.result.events.map((e: any) => e.data.id)).toEqual([theirs.id]);
  });
});

describe('MCP events: a credential revoked while its poll waits', () => {
  it('answers the held poll -32012 at the next event once its key is deleted, and refuses the key after', async () => {
    const made = await createAccountKey(api, owner.token, { scopes: ['read:messages'] });
    const conn = await connect('/v1/mcp', made.key);
    const start = await sdkRequest(conn, 'events/poll', { name: 'message.received' });
    const held = sdkError(conn, 'events/poll', { name: 'message.received', cursor: start.cursor, timeoutMs: 8000 });
    // The poll is waiting when the key goes: its process has subscribed to the account's wakeups.
    const channel = eventWakeupChannel(t.deps.config.bullmqPrefix, owner.accountId);
    await waitUntil(
      async () => {
        const [, count] = (await t.deps.redis.pubsub('NUMSUB', channel)) as [string, number];
        return count > 0;
      },
      10_000,
      'the poll to wait',
    );
    const deleted = await api.delete(`/v1/api_keys/${made.id}`, { token: owner.token });
    expect(deleted.status).toBeLessThan(300);
    await inboxA.receive('gone@example.com', 'after the key was deleted');
    expect(await held).toMatchObject({ code: -32012 });
    const after = await statelessPost(api, '/v1/mcp', made.key, 'events/poll', { name: 'message.received' });
    expect(after.status).toBe(401);
  });
});
