import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { getBrowser } from '../helpers/browser.js';
import { client, signupAccount, type Client as Api } from '../helpers/http.js';
import { createAgent } from '../helpers/keys.js';
import { BrowserOAuthClient, consentInBrowser, startCallbackPage } from '../helpers/oauth-browser-client.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Step-up as an MCP client application meets it (docs/mcp.md "Step-up"): a client authorized with a narrow scope
// calls a tool needing a wider one, gets the 403 insufficient_scope challenge, and its person is sent through the
// consent page again, in a real headless chromium, for the scope the challenge names.
//
// The SDK behaviour this relies on (@modelcontextprotocol/sdk client/streamableHttp.js, send()): on a 403 with
// error="insufficient_scope" the transport takes the challenge's `scope` and `resource_metadata` and calls auth()
// once per distinct challenge. auth() refreshes whenever it holds a refresh token, and a refresh can never widen a
// grant (RFC 6749 §6), so the retried call meets the same challenge and fails ("403 after trying upscoping").
// Without a refresh token auth() starts a new authorization asking for the challenge's scope and the call fails
// with UnauthorizedError after redirectToAuthorization(); the application then opens the URL, passes the code to
// transport.finishAuth() and retries. So the application's one step-up move is: when a call fails with the 403,
// forget the refresh token (keeping the access token, which still carries the narrow scopes) and call again.
// That SDK asks for the challenged scope alone (no SEP-2350 accumulation yet); an application that wants to keep
// its scopes reads the challenge itself and calls the SDK's exported auth() with the union, as the second test does.

let t: TestContext;
let api: Api;
let browser: Browser | null = null;
let skip: string | null = null;
let callback: Awaited<ReturnType<typeof startCallbackPage>>;
let owner: Awaited<ReturnType<typeof signupAccount>>;

const UPDATE = { name: 'update_agent_config', arguments: { config: { autoReply: 'changed by step-up' } } };
type ToolResult = { isError?: boolean; structuredContent?: any };

beforeAll(async () => {
  ({ browser, skip } = await getBrowser());
  if (skip) console.warn(`oauth-step-up-browser: skipped: ${skip}`);
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  callback = await startCallbackPage();
}, 900_000);

afterAll(async () => {
  await browser?.close();
  callback?.server.close();
  await t?.close();
});

/** Connects a fresh SDK client to the agent with only `scopes` granted, through the browser. */
async function connectNarrow(agentId: string, scopes: string[]) {
  const oauth = new BrowserOAuthClient(callback.url);
  const endpoint = new URL(`/v1/agents/${agentId}/mcp`, t.url);
  const first = new Client({ name: 'step-up-test', version: '1.0.0' });
  await expect(first.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }))).rejects.toThrow(
    UnauthorizedError,
  );
  await consentInBrowser(browser!, oauth.authorizationUrl!, owner, callback.url, { decision: 'allow', choose: scopes });
  await new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }).finishAuth(lastAnswer().get('code')!);
  expect(oauth.saved?.scope?.split(' ').sort()).toEqual([...scopes].sort());
  expect(oauth.saved?.refresh_token).toBeTruthy();
  const mcp = new Client({ name: 'step-up-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }));
  return { oauth, endpoint, mcp };
}

const lastAnswer = () => callback.answers.at(-1)!;
const autoReplyOf = async (agentId: string) =>
  (await api.get(`/v1/agents/${agentId}`, { token: owner.token })).body.config?.autoReply;

/** The application's step-up: forget the refresh token, call again; the SDK starts the wider authorization. */
async function stepUpAuthorization(oauth: BrowserOAuthClient, endpoint: URL) {
  oauth.saved = { ...oauth.saved!, refresh_token: undefined };
  oauth.authorizationUrl = undefined;
  const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: oauth });
  const mcp = new Client({ name: 'step-up-test', version: '1.0.0' });
  await mcp.connect(transport);
  await expect(mcp.callTool(UPDATE)).rejects.toThrow(UnauthorizedError);
  const wider = oauth.authorizationUrl as URL | undefined;
  expect(wider?.searchParams.get('scope')?.split(' ')).toContain('agent:config:write');
  expect(wider?.searchParams.get('resource')).toBe(endpoint.href);
  return { mcp, transport, wider: wider! };
}

describe('an MCP client steps up to a wider scope through the consent page in a real browser', () => {
  it('re-authorizes with the scope the 403 challenge names, and the retried call succeeds', async (ctx) => {
    if (!browser) return ctx.skip();
    const agentId = await createAgent(t, owner.accountId, 'Stepper', { autoReply: 'before' });
    const { oauth, endpoint, mcp } = await connectNarrow(agentId, ['agent:config:read']);
    const read = (await mcp.callTool({ name: 'get_agent_config', arguments: {} })) as ToolResult;
    expect(read.structuredContent).toMatchObject({ id: agentId, config: { autoReply: 'before' } });

    // Holding a refresh token, the SDK's own upscoping only refreshes, which keeps the narrow grant.
    await expect(mcp.callTool(UPDATE)).rejects.toThrow(/403 after trying upscoping/);
    expect(await autoReplyOf(agentId)).toBe('before');
    await mcp.close();

    const stepUp = await stepUpAuthorization(oauth, endpoint);
    const offered = await consentInBrowser(browser, stepUp.wider, owner, callback.url, {
      decision: 'allow',
      choose: ['agent:config:write'],
    });
    expect(offered).toContain('agent:config:write');
    await stepUp.transport.finishAuth(lastAnswer().get('code')!);
    // This SDK asks for the challenge's scope alone: it does not yet add the scopes it held before (the
    // accumulation of the 2026-07-28 spec, SEP-2350), so the new token carries what the second consent granted.
    expect(oauth.saved?.scope).toBe('agent:config:write');

    // The same connection retries the call the person stepped up for.
    const result = (await stepUp.mcp.callTool(UPDATE)) as ToolResult;
    expect(result.isError).toBeFalsy();
    expect(await autoReplyOf(agentId)).toBe('changed by step-up');
    await stepUp.mcp.close();
  });

  it('keeps the scopes held before when the application asks for them too (SEP-2350)', async (ctx) => {
    if (!browser) return ctx.skip();
    const agentId = await createAgent(t, owner.accountId, 'Accumulator', { autoReply: 'before' });
    const { oauth, endpoint, mcp } = await connectNarrow(agentId, ['agent:config:read']);
    await mcp.close();

    // An application doing the accumulation itself: it reads the challenge from its own fetch and calls the SDK's
    // exported auth() with the scopes it holds plus the challenged one, without its refresh token.
    let challenge = '';
    const watching: typeof fetch = async (url, init) => {
      const res = await fetch(url, init);
      if (res.status === 403) challenge = res.headers.get('www-authenticate') ?? '';
      return res;
    };
    oauth.saved = { ...oauth.saved!, refresh_token: undefined };
    const watched = new Client({ name: 'step-up-test', version: '1.0.0' });
    await watched.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth, fetch: watching }));
    await expect(watched.callTool(UPDATE)).rejects.toThrow(UnauthorizedError);
    await watched.close();
    const challenged = /scope="([^"]*)"/.exec(challenge)?.[1] ?? '';
    expect(challenged).toBe('agent:config:write');
    const scope = [...new Set([...oauth.saved.scope!.split(' '), ...challenged.split(' ')])].join(' ');
    expect(await auth(oauth, { serverUrl: endpoint, scope })).toBe('REDIRECT');

    const both = ['agent:config:read', 'agent:config:write'];
    const offered = await consentInBrowser(browser, oauth.authorizationUrl!, owner, callback.url, {
      decision: 'allow',
      choose: both,
    });
    expect(offered.sort()).toEqual(both);
    const authorizationCode = lastAnswer().get('code')!;
    expect(await auth(oauth, { serverUrl: endpoint, authorizationCode })).toBe('AUTHORIZED');
    expect(oauth.saved.scope?.split(' ').sort()).toEqual(both);

    const after = new Client({ name: 'step-up-test', version: '1.0.0' });
    await after.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }));
    expect(((await after.callTool(UPDATE)) as ToolResult).isError).toBeFalsy();
    const read = (await after.callTool({ name: 'get_agent_config', arguments: {} })) as ToolResult;
    expect(read.structuredContent).toMatchObject({ id: agentId, config: { autoReply: 'changed by step-up' } });
    await after.close();
  });

  it('keeps refusing, and changes nothing, when the person denies the wider scope', async (ctx) => {
    if (!browser) return ctx.skip();
    const agentId = await createAgent(t, owner.accountId, 'Refuser', { autoReply: 'before' });
    const { oauth, endpoint, mcp } = await connectNarrow(agentId, ['agent:config:read']);
    await mcp.close();
    const narrowToken = oauth.saved!.access_token;

    const stepUp = await stepUpAuthorization(oauth, endpoint);
    const offered = await consentInBrowser(browser, stepUp.wider, owner, callback.url, { decision: 'deny' });
    expect(offered).toContain('agent:config:write');
    expect(lastAnswer().get('error')).toBe('access_denied');
    expect(lastAnswer().get('code')).toBeNull();
    await stepUp.mcp.close();

    // The application calls again with what it holds: the same challenge, a new authorization, no change.
    const again = new Client({ name: 'step-up-test', version: '1.0.0' });
    await again.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }));
    await expect(again.callTool(UPDATE)).rejects.toThrow(UnauthorizedError);
    expect(oauth.saved!.access_token).toBe(narrowToken);
    // The narrow grant still works for what it allows, and the update never ran.
    const read = (await again.callTool({ name: 'get_agent_config', arguments: {} })) as ToolResult;
    expect(read.structuredContent).toMatchObject({ id: agentId, config: { autoReply: 'before' } });
    expect(await autoReplyOf(agentId)).toBe('before');
    await again.close();
  });
});
