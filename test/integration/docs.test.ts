import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { getBrowser } from '../helpers/browser.js';
import { client, type Client } from '../helpers/http.js';
import { createTestContext, type TestContext } from '../helpers/test-context.js';

// GET /docs: the API reference, rendered by Swagger UI from /openapi.json. Everything it needs comes from this
// server (the browser is refused every other origin, as with no internet), and the page says nothing about the
// environment it runs in.

const OPS = { OPS_USERNAME: 'operator', OPS_PASSWORD: 'ops-password-never-in-docs' };

let t: TestContext;
let api: Client;
let browser: Browser | null = null;
let skip: string | null = null;

beforeAll(async () => {
  ({ browser, skip } = await getBrowser());
  if (skip) console.warn(`docs: browser tests skipped: ${skip}`);
  t = await createTestContext(OPS);
  api = client(t.url);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const ASSETS = ['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/init.js', '/docs/favicon-32x32.png'];

describe('the docs page over HTTP', () => {
  it('is where the root address leads', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(`${t.url}/`, { method, redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/docs');
    }
    expect((await fetch(`${t.url}/`, { method: 'POST', redirect: 'manual' })).status).toBe(404);
  });

  it('is public HTML whose scripts and styles all come from /docs on this server', async () => {
    const res = await api.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = res.body as string;
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.sort()).toEqual([...ASSETS].sort());
    expect(html).not.toMatch(/<script>(?!<\/script>)|\son\w+=/); // no inline script or handler: script-src 'self' allows none
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('serves each asset from the installed package with its type', async () => {
    const types = [
      'text/css; charset=utf-8',
      'text/javascript; charset=utf-8',
      'text/javascript; charset=utf-8',
      'image/png',
    ];
    for (const [i, path] of ASSETS.entries()) {
      const res = await fetch(t.url + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(types[i]);
      expect((await res.arrayBuffer()).byteLength, path).toBeGreaterThan(100);
    }
    expect(await (await fetch(`${t.url}/docs/init.js`)).text()).toContain('url: "/openapi.json"');
    expect((await api.get('/docs/swagger-ui.js')).status).toBe(404);
    expect((await api.get('/docs/..%2fpackage.json')).status).toBe(404);
  });

  it('reveals no secret and no environment value', async () => {
    const { config } = t.deps;
    const texts = await Promise.all(['/docs', '/docs/init.js'].map(async (p) => (await fetch(t.url + p)).text()));
    for (const text of texts) {
      for (const value of [
        config.appSecret,
        OPS.OPS_PASSWORD,
        OPS.OPS_USERNAME,
        config.database.url,
        new URL(config.database.url).pathname.slice(1),
        config.redis.url,
        config.bullmqPrefix,
      ]) {
        expect(text).not.toContain(value);
      }
    }
  });
});

describe('the docs page in a real browser', () => {
  it('renders the operations of /openapi.json with no console error, loading nothing from another origin', async (ctx) => {
    if (!browser) return ctx.skip();
    const spec = await api.get('/openapi.json');
    expect(spec.status).toBe(200);
    // A summary from the document the page must show.
    const summaries = Object.values(spec.body.paths as Record<string, Record<string, { summary?: string }>>)
      .flatMap((ops) => Object.values(ops).map((op) => op.summary))
      .filter((s): s is string => Boolean(s));
    expect(summaries.length).toBeGreaterThan(10);

    const page = await browser.newPage();
    const problems: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`${msg.type()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('requestfailed', (req) => problems.push(`failed: ${req.url()}`));
    // As with no internet: any other origin is refused (and would be reported above).
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${t.url}/`) || url.startsWith('data:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    try {
      await page.goto(`${t.url}/docs`, { waitUntil: 'load' });
      for (const summary of [summaries[0]!, summaries[summaries.length - 1]!]) {
        await page.getByText(summary, { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
      }
      // Every path of the document is on the page, and every webhook (event) it describes.
      const shown = (await page.locator('.opblock-summary-path').allInnerTexts()).map((p) =>
        p.replace(/\u200b/g, '').trim(),
      );
      expect(new Set(shown)).toEqual(
        new Set([...Object.keys(spec.body.paths), ...Object.keys(spec.body.webhooks ?? {})]),
      );
      // "Try it out" calls the API from the page (CSP connect-src 'self'): GET /healthz answers 200.
      const health = page.locator('.opblock-get', {
        has: page.locator('.opblock-summary-path', { hasText: /^\/healthz$/ }),
      });
      await health.locator('.opblock-summary').click();
      await health.getByRole('button', { name: 'Try it out' }).click();
      await health.getByRole('button', { name: 'Execute' }).click();
      await health
        .locator('.live-responses-table .response-col_status', { hasText: '200' })
        .waitFor({ state: 'visible', timeout: 30_000 });
      expect(elsewhere).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  }, 300_000);
});
