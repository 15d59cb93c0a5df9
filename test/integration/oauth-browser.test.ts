import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { getBrowser } from '../helpers/browser.js';
import { client, signupAccount, type Client as Api } from '../helpers/http.js';
import { createAgent } from '../helpers/keys.js';
import { BrowserOAuthClient, startCallbackPage } from '../helpers/oauth-browser-client.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// The whole connection as a hosted MCP client makes it: the MCP SDK's own OAuth support discovers, registers
// and starts the flow; a person signs in and consents in a real headless chromium; the SDK exchanges the code.

let t: TestContext;
let api: Api;
let browser: Browser | null = null;
let skip: string | null = null;
let callback: Awaited<ReturnType<typeof startCallbackPage>>;
let owner: Awaited<ReturnType<typeof signupAccount>>;
let agentA: string;
let agentB: string;

beforeAll(async () => {
  ({ browser, skip } = await getBrowser());
  if (skip) console.warn(`oauth-browser: skipped: ${skip}`);
  t = await createTestContext();
  api = client(t.url);
  owner = await signupAccount(api);
  agentA = await createAgent(t, owner.accountId, 'Alpha', { autoReply: 'alpha here' });
  agentB = await createAgent(t, owner.accountId, 'Beta');
  callback = await startCallbackPage();
}, 900_000);

afterAll(async () => {
  await browser?.close();
  callback?.server.close();
  await t?.close();
});

describe('an MCP client connects with OAuth through a real browser', () => {
  it('registers, signs in, consents to one agent and two scopes, and then sees and calls only the granted tools', async (ctx) => {
    if (!browser) return ctx.skip();
    const redirectUrl = callback.url;
    const oauth = new BrowserOAuthClient(redirectUrl);
    const endpoint = new URL(`/v1/agents/${agentA}/mcp`, t.url);

    // First contact: 401 with the resource metadata, then discovery, registration and the authorization URL.
    const first = new Client({ name: 'browser-test', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }))).rejects.toThrow(
      UnauthorizedError,
    );
    expect(oauth.info?.client_id).toBeTruthy();
    const authUrl = oauth.authorizationUrl!;
    expect(authUrl.href.startsWith(`${t.url}/oauth/auth?`)).toBe(true);
    expect(authUrl.searchParams.get('resource')).toBe(endpoint.href);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');

    const context = await browser.newContext();
    const page = await context.newPage();
    const loginResponse = await page.goto(authUrl.href);
    expect(loginResponse!.headers()['x-frame-options']).toBe('DENY');
    expect(loginResponse!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.fill('#email', owner.email);
    await page.fill('#password', owner.password);
    const [consentResponse] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(consentResponse!.headers()['x-frame-options']).toBe('DENY');

    const html = await page.content();
    expect(html).toContain('Browser test client');
    expect(html).toContain('Alpha');
    expect(html).not.toContain(owner.password);
    const offered = await page.$$eval('input[name=scope]', (boxes) => boxes.map((b) => b.getAttribute('value') ?? ''));
    expect(offered.sort()).toEqual([
      'agent:activity:read',
      'agent:config:read',
      'agent:config:write',
      'agent:conversations:read',
      'agent:trigger',
    ]);
    const chosen = ['agent:config:read', 'agent:activity:read'];
    for (const scope of offered) await page.setChecked(`input[name=scope][value="${scope}"]`, chosen.includes(scope));
    await Promise.all([page.waitForURL((url) => url.href.startsWith(redirectUrl)), page.click('button[value=allow]')]);
    await context.close();

    expect(callback.answers).toHaveLength(1);
    const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: oauth });
    await transport.finishAuth(callback.answers[0]!.get('code')!);
    expect(oauth.saved?.scope?.split(' ').sort()).toEqual(chosen.sort());
    expect(oauth.saved?.refresh_token).toBeTruthy();

    const mcp = new Client({ name: 'browser-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }));
    const { tools } = await mcp.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(['get_agent_activity', 'get_agent_config']);
    const result = (await mcp.callTool({ name: 'get_agent_config', arguments: {} })) as {
      isError?: boolean;
      structuredContent?: any;
    };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: agentA, name: 'Alpha', config: { autoReply: 'alpha here' } });
    // Step-up to a wider scope through the consent page: oauth-step-up-browser.test.ts.
    await mcp.close();

    // The same token is that agent's key and nothing more.
    const token = oauth.saved!.access_token;
    const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const other = await api.post(`/v1/agents/${agentB}/mcp`, {
      token,
      body: rpc,
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('agent_forbidden');
    const account = await api.post('/v1/mcp', {
      token,
      body: rpc,
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(account.status).toBe(403);
    expect(account.body.error.code).toBe('agent_forbidden');

    const grants = await api.get('/v1/oauth/grants', { token: owner.token });
    expect(grants.body.data).toHaveLength(1);
    expect(grants.body.data[0]).toMatchObject({
      clientName: 'Browser test client',
      agentId: agentA,
      resource: endpoint.href,
      grantedBy: owner.userId,
    });
    expect(grants.body.data[0].scopes.sort()).toEqual(chosen.sort());
  });

  it('shows the sign-in form, not the consent form, to a browser without a session', async (ctx) => {
    if (!browser) return ctx.skip();
    const reg = await fetch(`${t.url}/oauth/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
    });
    const { client_id } = (await reg.json()) as { client_id: string };
    const url = new URL(`${t.url}/oauth/auth`);
    for (const [k, v] of Object.entries({
      client_id,
      response_type: 'code',
      redirect_uri: 'http://127.0.0.1:9/cb',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: `${t.url}/v1/agents/${agentA}/mcp`,
      scope: 'agent:config:read',
    })) {
      url.searchParams.set(k, v);
    }
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url.href);
    expect(await page.$('#password')).not.toBeNull();
    expect(await page.$('input[name=scope]')).toBeNull();
    await context.close();
  });
});
