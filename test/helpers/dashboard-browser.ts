import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { getBrowser } from './browser.js';
import { client, type Client } from './http.js';
import { startReceiver, type Receiver } from './receiver.js';
import { createTestContext, type TestContext } from './test-context.js';
import { waitUntil } from './wait.js';

// What the dashboard and portal tests share: the service with its workers, a receiver, and a browser context where
// every origin but the service's is blocked (so a page that needed the internet would fail visibly) and every
// console error or page error is collected for the test to assert there are none; signing in; waiting for a page
// to show what a worker did.

export interface PageContext {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and requests to other origins, in the order they happened. */
  problems: string[];
}

export async function openPageContext(
  browser: Browser,
  origin: string,
  options: BrowserContextOptions = {},
): Promise<PageContext> {
  const context = await browser.newContext(options);
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('data:')) return route.continue();
    problems.push(`blocked request to ${url}`);
    return route.abort();
  });
  const page = await context.newPage();
  // A page answered with an error status (a 400 form, a 403 refusal) is logged by chromium as a failed resource;
  // the tests assert those statuses themselves. Any other resource that fails is a problem.
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource: the server responded'))
      problems.push(`console: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400 && res.request().resourceType() !== 'document')
      problems.push(`${res.status()} for ${res.url()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return { context, page, problems };
}

/** The CSRF token of the first form on the page, as a forged request would have to copy it. */
export const csrfOnPage = (page: Page) => page.locator('input[name=csrf]').first().getAttribute('value');

export interface PageSuite {
  t: TestContext;
  api: Client;
  receiver: Receiver;
  browser: Browser | null;
  /** Null when no browser could be started: the browser tests skip (the reason is printed once). */
  pc: PageContext | null;
  close(): Promise<void>;
}

/** One test file's service (receivers on 127.0.0.1 allowed), workers, receiver, browser and page context. */
export async function startPageSuite(name: string, env: Record<string, string> = {}): Promise<PageSuite> {
  const { browser, skip } = await getBrowser();
  if (skip) console.warn(`${name}: skipped: ${skip}`);
  const t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...env });
  await t.startWorkers();
  const receiver = await startReceiver();
  const pc = browser ? await openPageContext(browser, t.url) : null;
  return {
    t,
    api: client(t.url),
    receiver,
    browser,
    pc,
    async close() {
      await pc?.context.close();
      await browser?.close();
      await receiver.close();
      await t.close();
    },
  };
}

/** Signs in with the dashboard's own form, reached from /dashboard as a signed-out browser is sent there. */
export async function signInToDashboard(page: Page, origin: string, email: string, password: string) {
  await page.goto(`${origin}/dashboard`);
  if (page.url() !== `${origin}/dashboard/sign-in`) throw new Error(`not sent to sign in: at ${page.url()}`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.click('button[type=submit]');
}

/**
 * Loads the page again (`url`, or a reload) until `selector` matches one element: what a worker did, shown.
 * Give `url` when the page on screen answered a POST, which a reload would send again.
 */
export async function reloadUntilShown(page: Page, selector: string, what: string, url?: string) {
  await waitUntil(
    async () => {
      await (url ? page.goto(url) : page.reload());
      return (await page.locator(selector).count()) === 1;
    },
    30_000,
    what,
  );
}
