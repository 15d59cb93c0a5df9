import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from '../helpers/app-process.js';
import { client, signupAccount, type Client } from '../helpers/http.js';
import { createAgent, createAgentKey, ALL_AGENT_SCOPES } from '../helpers/keys.js';
import {
  isEventOf,
  isMethod,
  makeInbox,
  META_2026,
  openSse,
  statelessPost,
  VERSION_2026,
} from '../helpers/mcp-events.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// MCP events across real web processes: a stream held by one process sees what is committed through another, a
// long poll on one is woken by a commit through the other (Redis, not a timer), and after a process restarts its
// client resumes from its cursor with nothing lost.

let t: TestContext;
let dir: string;
let agentId: string;
let key: string;
let owner: Awaited<ReturnType<typeof signupAccount>>;
const started: AppProcess[] = [];

async function startWeb(): Promise<AppProcess> {
  const { config } = t.deps;
  const web = await startAppProcess('web', {
    cwd: dir,
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: config.database.url,
      REDIS_URL: config.redis.url,
      BULLMQ_PREFIX: config.bullmqPrefix,
      APP_SECRET: config.appSecret,
    },
  });
  started.push(web);
  return web;
}

function stream(web: AppProcess, cursor: string | null) {
  const body = {
    jsonrpc: '2.0',
    id: 'sub-1',
    method: 'events/stream',
    params: { name: 'message.received', cursor, _meta: META_2026 },
  };
  const headers = { 'mcp-protocol-version': VERSION_2026, 'mcp-method': 'events/stream' };
  return openSse(`${web.url}/v1/agents/${agentId}/mcp`, key, body, headers);
}

let web1: AppProcess;
let web2: AppProcess;
let api1: Client;
let api2: Client;
let inbox: Awaited<ReturnType<typeof makeInbox>>;

beforeAll(async () => {
  t = await createTestContext();
  dir = mkdtempSync(join(tmpdir(), 'sb-mcp-events-'));
  [web1, web2] = await Promise.all([startWeb(), startWeb()]);
  api1 = client(web1.url);
  api2 = client(web2.url);
  owner = await signupAccount(api1);
  agentId = await createAgent(t, owner.accountId, 'Alpha');
  key = (await createAgentKey(api1, owner.token, agentId, { scopes: ALL_AGENT_SCOPES })).key;
  inbox = await makeInbox(api2, owner.token, agentId, 'alpha@agents.example.com');
}, 180_000);
afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('MCP events across web processes', () => {
  it('streams on one process what another commits, and wakes a long poll on one with a commit through the other', async () => {
    const s = await stream(web1, null);
    await s.next(isMethod('active'));
    const msg = await inbox.receive('two@example.com', 'through the other process');
    await s.next(isEventOf(msg.id));
    s.abort();

    const start = await statelessPost(api2, `/v1/agents/${agentId}/mcp`, key, 'events/poll', {
      name: 'message.received',
    });
    const held = statelessPost(api2, `/v1/agents/${agentId}/mcp`, key, 'events/poll', {
      name: 'message.received',
      cursor: start.body.result.cursor,
      timeoutMs: 20000,
    });
    // The commit goes through the other process than the one holding the poll.
    const res = await api1.post(`/v1/inbound/${inbox.id}`, {
      headers: { 'x-inbound-token': inbox.ingestToken },
      body: { from: 'two@example.com', text: 'wake the poll' },
    });
    expect(res.status).toBe(201);
    const woken = await held;
    expect(woken.body.result.events.map((e: any) => e.data.id)).toEqual([res.body.id]);
  });

  it('resumes from its cursor after the process holding its stream restarts, with nothing lost', async () => {
    const s = await stream(web1, null);
    await s.next(isMethod('active'));
    const before = await inbox.receive('r@example.com', 'before the restart');
    const seen = await s.next(isEventOf(before.id));
    await web1.stop();
    await s.closed;
    const during1 = await inbox.receive('r@example.com', 'while it is down, 1');
    const during2 = await inbox.receive('r@example.com', 'while it is down, 2');
    web1 = await startWeb();
    const again = await stream(web1, seen.params.cursor);
    await again.next(isEventOf(during2.id));
    const after = await inbox.receive('r@example.com', 'after the restart');
    await again.next(isEventOf(after.id));
    expect(again.messages.filter(isMethod('event')).map((m) => m.params.data.id)).toEqual([
      during1.id,
      during2.id,
      after.id,
    ]);
    again.abort();
  });
});
