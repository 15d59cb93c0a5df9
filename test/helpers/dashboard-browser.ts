import type { Browser, BrowserContext, Page } from 'playwright-core';

// A browser context for the dashboard and portal tests: every origin but the service's is blocked (so a page that
// needed the internet would fail visibly), and every console error or page error is collected for the test to
// assert there are none.

export interface PageContext {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and requests to other origins, in the order they happened. */
  problems: string[];
}

export async function openPageContext(browser: Browser, origin: string): Promise<PageContext> {
  const context = await browser.newContext();
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
