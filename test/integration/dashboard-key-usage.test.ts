import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadUntilShown, signInToDashboard, startPageSuite, type PageSuite } from '../helpers/dashboard-browser.js';
import { setupAccount } from '../helpers/setup-account.js';

// A key's page in headless chromium: its spend cap and limits, and its requests per hour drawn by the server.

let suite: PageSuite;

beforeAll(async () => {
  suite = await startPageSuite('dashboard-key-usage');
}, 900_000);
afterAll(async () => {
  await suite?.close();
});

describe("the dashboard's key page", () => {
  it('shows the refilling cap, the named limits and a usage chart of valid and refused requests', async (ctx) => {
    const { t, api, pc } = suite;
    if (!pc) return ctx.skip();
    const owner = await setupAccount(t, {
      accountKey: {
        name: 'ci key',
        scopes: ['read:agents'],
        spendCapCredits: 40,
        spendCapInterval: 'monthly',
        spendCapRefillDay: 5,
        rateLimits: [{ name: 'tiny', limit: 2, durationMs: 30 * 24 * 3600_000 }],
      },
    });
    const token = owner.accountKey.key;
    for (let i = 0; i < 3; i++) await api.get('/v1/agents', { token });

    const { page } = pc;
    await signInToDashboard(page, t.url, owner.email, owner.password);
    await page.goto(`${t.url}/dashboard/keys`);
    await page.click('a:text("ci key")');
    expect(page.url()).toBe(`${t.url}/dashboard/keys/${owner.accountKey.id}`);
    // Counts reach Postgres in batches, about a second after the requests.
    await reloadUntilShown(page, '[data-stat=refused]:text-is("1")', 'the refused request counted');
    expect(await page.locator('[data-stat=valid]').textContent()).toBe('2');
    expect(await page.locator('[data-stat=rate_limited]').textContent()).toBe('1');
    expect(await page.locator('[data-field=spendCap]').textContent()).toMatch(
      /^40 of 40 credits left, refills monthly/,
    );
    expect(await page.locator('main').textContent()).toContain('tiny: 2 per 2592000000 ms');

    // The chart is a server-drawn SVG image as wide as the content; no script on the page.
    const img = page.locator('img.chart');
    expect(await img.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from((await img.getAttribute('src'))!.split(',')[1]!, 'base64').toString();
    expect(svg).toContain('requests');
    expect(svg).toContain('refused');
    expect(
      await img.evaluate((el) => {
        const i = el as unknown as { complete: boolean; naturalWidth: number };
        return i.complete && i.naturalWidth > 0;
      }),
    ).toBe(true);
    expect(await page.locator('script').count()).toBe(0);
    expect(pc.problems).toEqual([]);

    // Another account's key is not found.
    const stranger = await setupAccount(t, { accountKey: {} });
    const res = await page.goto(`${t.url}/dashboard/keys/${stranger.accountKey.id}`);
    expect(res?.status()).toBe(404);
  });
});
