import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

// An MCP client application's side of OAuth for the browser tests: the SDK's provider interface kept in memory,
// the loopback redirect page that receives the answer, and a person signing in and consenting in chromium.

/** What an MCP client application keeps: everything in memory, the browser step handed to the test. */
export class BrowserOAuthClient implements OAuthClientProvider {
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

/** The client's redirect URI: a local page that records each answer, as a desktop client's loopback listener. */
export async function startCallbackPage(): Promise<{ server: Server; url: string; answers: URLSearchParams[] }> {
  const answers: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/callback') answers.push(url.searchParams); // not the browser's /favicon.ico
    res.end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, answers };
}

/**
 * A person opens the authorization URL in a fresh browser, signs in when asked, and answers the consent form:
 * `allow` with exactly `choose` ticked, or `deny`. Returns the scopes the form offered; the browser has been
 * sent to the redirect URI when it returns.
 */
export async function consentInBrowser(
  browser: Browser,
  authUrl: URL,
  person: { email: string; password: string },
  redirectUrl: string,
  answer: { decision: 'allow'; choose: string[] } | { decision: 'deny' },
): Promise<string[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(authUrl.href);
    if (await page.$('#password')) {
      await page.fill('#email', person.email);
      await page.fill('#password', person.password);
      await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    }
    const offered = await page.$$eval('input[name=scope]', (boxes) => boxes.map((b) => b.getAttribute('value') ?? ''));
    if (answer.decision === 'allow') {
      for (const scope of offered) {
        await page.setChecked(`input[name=scope][value="${scope}"]`, answer.choose.includes(scope));
      }
    }
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(redirectUrl)),
      page.click(`button[value=${answer.decision}]`),
    ]);
    return offered;
  } finally {
    await context.close();
  }
}
