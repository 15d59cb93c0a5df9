import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBrowser } from '../helpers/browser.js';
import { openPageContext, signInToDashboard } from '../helpers/dashboard-browser.js';
import { client, type Client } from '../helpers/http.js';
import { setupAccount, type SetupAccount } from '../helpers/setup-account.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// Every page the service serves to a browser loads from the service alone: an operator or a customer looking at
// it tells no third party when and from where (a font, a script or an image from elsewhere would). Every other
// origin is blocked and each attempt is a failure, as are console and page errors.

const OPS = { OPS_USERNAME: 'operator', OPS_PASSWORD: 'ops-password-for-the-browser' };

let t: TestContext;
let api: Client;
let owner: SetupAccount;
let browser: Browser | null = null;

beforeAll(async () => {
  const got = await getBrowser();
  if (got.skip !== null) throw new Error(`a browser is needed to see what a page loads: ${got.skip}`);
  browser = got.browser;
  t = await createTestContext(OPS);
  api = client(t.url);
  owner = await setupAccount(t);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('pages served to a browser load nothing from another origin', () => {
  it('bull-board, at /admin/queues', async () => {
    const credentials = { username: OPS.OPS_USERNAME, password: OPS.OPS_PASSWORD };
    const pc = await openPageContext(browser!, t.url, { httpCredentials: credentials });
    try {
      await pc.page.goto(`${t.url}/admin/queues`, { waitUntil: 'networkidle' });
      // The application rendered its queues (its scripts and styles came from the service).
      await pc.page.getByText('webhook-fanout').first().waitFor({ timeout: 30_000 });
      expect(pc.problems).toEqual([]);
    } finally {
      await pc.context.close();
    }
  });

  it('the API reference, the dashboard and a portal link', async () => {
    const pc = await openPageContext(browser!, t.url);
    try {
      await pc.page.goto(`${t.url}/docs`, { waitUntil: 'networkidle' });
      await pc.page.locator('.opblock').first().waitFor({ timeout: 30_000 });
      await signInToDashboard(pc.page, t.url, owner.email, owner.password);
      await pc.page.waitForURL(`${t.url}/dashboard/webhooks`);
      const link = await api.post('/v1/portal-links', { token: owner.token, body: { tenant: 'cust-1' } });
      expect(link.status).toBe(201);
      await pc.page.goto(link.body.url, { waitUntil: 'networkidle' });
      expect(pc.problems).toEqual([]);
    } finally {
      await pc.context.close();
    }
  });
});
