import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/app/deps.js';
import { closeDeps } from '../../src/app/runtime.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { client } from '../helpers/http.js';
import { ALL_AGENT_SCOPES } from '../helpers/keys.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';
import { waitUntil } from '../helpers/wait.js';

// Two runtimes in one process share nothing: each keeps its caches, memos, limiters and open streams in what its
// composition root built (src/app/deps.ts), never in a module. `a` and `b` are two services (their own databases
// and Redis prefixes); `twin` is a second runtime of `a`'s service (its database and prefix, its own connections),
// for what runtimes of one service share on purpose through Postgres and Redis but never in memory.

const LIMITS = { SIGN_IN_LIMITS: 'email=3' };

let a: TestContext;
let b: TestContext;
let twin: Deps;
let twinServer: RunningServer;

beforeAll(async () => {
  [a, b] = await Promise.all([createTestContext(LIMITS), createTestContext(LIMITS)]);
  twin = await a.createRuntime();
  twinServer = await startServer(twin, 0, '127.0.0.1', { publicUrl: a.url });
});
afterAll(async () => {
  await twinServer?.close();
  if (twin) await closeDeps(twin);
  await Promise.all([a?.close(), b?.close()]);
});

/** The statements a runtime sends about API keys: the lookup by secret and the "last used" write. */
function keyStatements(deps: Deps) {
  const seen = { lookups: 0, usageWrites: 0 };
  deps.db.on('query', ({ sql }: { sql: string }) => {
    if (/from "api_keys" where "secret_hash"/.test(sql)) seen.lookups++;
    if (/update "api_keys" set "last_used_at"/.test(sql)) seen.usageWrites++;
  });
  return seen;
}

describe('two runtimes in one process', () => {
  it("keep their own key cache and usage memo: one runtime's cached row and last write do not serve the other", async () => {
    const owner = await setupAccount(a, { accountKey: {} });
    const inA = keyStatements(a.deps);
    const inTwin = keyStatements(twin);
    const listAgents = (url: string) => client(url).get('/v1/agents', { token: owner.accountKey.key });

    expect((await listAgents(a.url)).status).toBe(200);
    await waitUntil(() => inA.usageWrites === 1, 30_000, "the key's first use recorded by a");
    expect((await listAgents(a.url)).status).toBe(200);
    // a's second request is served from its cache, and its memo holds the usage write back for a minute.
    expect(inA).toEqual({ lookups: 1, usageWrites: 1 });

    expect((await listAgents(twinServer.url)).status).toBe(200);
    await waitUntil(() => inTwin.usageWrites === 1, 30_000, "the key's first use recorded by the twin");
    // The twin found nothing of a's in memory: it looked the key up and wrote its usage itself.
    expect(inTwin).toEqual({ lookups: 1, usageWrites: 1 });
    expect(inA).toEqual({ lookups: 1, usageWrites: 1 });
  });

  it('count sign-in attempts each under its own prefix: a spent budget in one holds nothing back in the other', async () => {
    const email = `nobody-${Date.now()}@example.com`;
    const login = (url: string) =>
      client(url).post('/v1/auth/login', { body: { email, password: 'not the password' } });
    for (let i = 0; i < 3; i++) expect((await login(a.url)).status).toBe(401);
    expect((await login(a.url)).status).toBe(429);
    expect((await login(b.url)).status).toBe(401);
    // The twin is the same service as a: its attempts count in a's budget, which is spent.
    expect((await login(twinServer.url)).status).toBe(429);
  });

  it("hold their own event streams: draining one runtime's server ends its streams, not the other's", async () => {
    const [inA, inB] = await Promise.all([setupMcpAgent(a), setupMcpAgent(b)]);
    const [serverA, serverB] = await Promise.all([
      startServer(a.deps, 0, '127.0.0.1', { publicUrl: a.url }),
      startServer(b.deps, 0, '127.0.0.1', { publicUrl: b.url }),
    ]);
    const streamA = await listen(serverA.url, inA);
    const streamB = await listen(serverB.url, inB);

    const closingA = serverA.close();
    await streamA.ended;
    // b's server answers a later request while its stream is still open (the sentinel).
    expect((await mcpPost(serverB.url, inB, request('tools/list'))).status).toBe(200);
    expect(streamB.isEnded()).toBe(false);
    serverA.server.closeAllConnections();
    await closingA;

    const closingB = serverB.close();
    await streamB.ended;
    serverB.server.closeAllConnections();
    await closingB;
  });
});

// The stateless MCP revision's subscriptions/listen: a stream the server holds open until it drains.
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'runtime-isolation-test', version: '1.0.0' },
};
const request = (method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params: { ...params, _meta: META },
});

type McpAgent = Pick<SetupAccount, 'agentId'> & { key: string };

async function setupMcpAgent(t: TestContext): Promise<McpAgent> {
  const made = await setupAccount(t, { agent: { name: 'Listener' }, agentKey: { scopes: ALL_AGENT_SCOPES } });
  return { agentId: made.agentId, key: made.agentKey.key };
}

function mcpPost(url: string, agent: McpAgent, body: ReturnType<typeof request>) {
  return fetch(`${url}/v1/agents/${agent.agentId}/mcp`, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': META['io.modelcontextprotocol/protocolVersion'],
      'mcp-method': body.method,
      authorization: `Bearer ${agent.key}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
}

/** Opens a stream, reads its first event, and reads on until it ends. */
async function listen(url: string, agent: McpAgent) {
  const res = await mcpPost(url, agent, request('subscriptions/listen', { notifications: {} }));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('\n\n')) text += (await reader.read()).value ?? '';
  let done = false;
  const ended = (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
    done = true;
  })();
  return { ended, isEnded: () => done };
}
