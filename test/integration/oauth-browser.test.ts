import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { getBrowser } from '../helpers/browser.js';
import { client, signupAccount, type Client as Api } from '../helpers/http.js';
import { createAgent } from '../helpers/keys.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// The whole connection as a hosted MCP client makes it: the MCP SDK's own OAuth support discovers, registers
// and starts the flow; a person signs in and consents in a real headless chromium; the SDK exchanges the code.

/** What an MCP client application keeps: everything in memory, the browser step handed to the test. */
class BrowserOAuthClient implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Browser test client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let t: TestContext;
let api: Api;
let browser: Browser | null = null;
let skip: string | null = null;
let callbackServer: Server;
const codes: string[] = [];
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
  // The client's redirect URI: a local page that receives the code, as a desktop client's loopback listener.
  callbackServer = createServer((req, res) => {
    const code = new URL(req.url ?? '/', 'http://x').searchParams.get('code');
    if (code) codes.push(code);
    res.end('You can close this window.');
  });
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
}, 900_000);

afterAll(async () => {
  await browser?.close();
  callbackServer?.close();
  await t?.close();
});

describe('an MCP client connects with OAuth through a real browser', () => {
  it('registers, signs in, consents to one agent and two scopes, and then sees and calls only the granted tools', async (ctx) => {
    if (!browser) return ctx.skip();
    const redirectUrl = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
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

    expect(codes).toHaveLength(1);
    const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: oauth });
    await transport.finishAuth(codes[0]!);
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
    // Step-up: the 403 insufficient_scope challenge makes the SDK ask for the missing scope. Holding a refresh
    // token, this SDK first refreshes (which keeps the granted scopes), so the call still fails with a 403...
    const update = { name: 'update_agent_config', arguments: { config: { autoReply: 'x' } } };
    await expect(mcp.callTool(update)).rejects.toThrow(/403/);
    // ...without one it starts a new authorization naming the wider scope, which goes through the consent page.
    const saved = oauth.saved!;
    oauth.saved = { ...saved, refresh_token: undefined };
    oauth.authorizationUrl = undefined;
    const stepUp = new Client({ name: 'browser-test', version: '1.0.0' });
    await stepUp.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }));
    await expect(stepUp.callTool(update)).rejects.toThrow(UnauthorizedError);
    await stepUp.close();
    oauth.saved = saved;
    expect(oauth.authorizationUrl).toBeDefined();
    const wider = oauth.authorizationUrl as unknown as URL;
    expect(wider.searchParams.get('scope')?.split(' ')).toContain('agent:config:write');
    expect(wider.searchParams.get('resource')).toBe(endpoint.href);
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
