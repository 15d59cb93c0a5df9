import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBrowser } from '../../../test/helpers/browser.js';
import { transpiledModules } from '../../../test/helpers/transpiled-modules.js';
import {
  nobleKeyPair,
  NOW,
  onlyStandard,
  onlySwitchboard,
  randomSecret,
  serviceDelivery,
  v1aDelivery,
} from './deliveries.js';

// The library where only WebCrypto exists: its TypeScript source, transpiled file by file as the build emits it
// (test/helpers/transpiled-modules.ts), served from 127.0.0.1 to a page in headless chromium (every other origin
// blocked), and verify() called there for each scheme. No Buffer, no process, no node: module is on that page, so
// one reached for would fail here.

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

// The page imports the library as an ES module, as an app bundling it would, and hands it to the test.
const PAGE = `<!doctype html><title>verify</title>
<script type="module">import * as lib from '/lib/index.js'; globalThis.webhooks = lib;</script>`;

type Library = typeof import('@switchboard/webhooks');

let browser: Browser | null = null;
let server: Server;
let origin: string;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  const found = await getBrowser();
  if (found.skip) console.warn(`webhooks-browser: skipped: ${found.skip}`);
  browser = found.browser;
  const modules = transpiledModules(SRC, '/lib');
  server = createServer((req, res) => {
    const js = modules.get(req.url ?? '');
    if (js) return res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    // The favicon chromium asks for is not a problem; anything else missing is (a 404 is logged as an error).
    res.writeHead(req.url === '/favicon.ico' ? 204 : 404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (!browser) return;
  const context = await browser.newContext();
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return route.continue();
    problems.push(`blocked request to ${url}`);
    return route.abort();
  });
  page = await context.newPage();
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  await page.goto(`${origin}/`);
  await page
    .waitForFunction(() => 'webhooks' in globalThis, undefined, { timeout: 30_000 })
    .catch((err: Error) => {
      throw new Error(`the library did not load: ${problems.join('; ') || err.message}`);
    });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

interface Case {
  body: string;
  headers: Record<string, string>;
  key: string | string[];
  /** Build Fetch Headers in the page from `headers`. */
  fetchHeaders?: boolean;
  nowMs: number;
}

/** verify() in the page: the envelope's id, or the error's name and reason. */
function verifyInPage(cases: Case[]) {
  return page.evaluate(async (list) => {
    const lib = (globalThis as unknown as { webhooks: Library }).webhooks;
    const results = [];
    for (const c of list) {
      const headers = c.fetchHeaders ? new Headers(c.headers) : c.headers;
      try {
        const envelope = await lib.verify(c.body, headers, c.key, { now: () => new Date(c.nowMs) });
        results.push({ id: envelope.id as string });
      } catch (err) {
        const e = err as { name: string; reason?: string };
        results.push({ error: e.name, reason: e.reason, isClass: err instanceof lib.WebhookVerificationError });
      }
    }
    return results;
  }, cases);
}

describe('in a browser, with WebCrypto only', () => {
  it('the page has no Node globals to lean on', async (ctx) => {
    if (!browser) return ctx.skip();
    const globals = await page.evaluate(() => [
      typeof (globalThis as Record<string, unknown>).Buffer,
      typeof (globalThis as Record<string, unknown>).process,
    ]);
    expect(globals).toEqual(['undefined', 'undefined']);
  });

  it('verifies the service’s t=/v1= and v1 signatures and a v1a one, and refuses tampered copies', async (ctx) => {
    if (!browser) return ctx.skip();
    const nowMs = NOW.getTime();
    const previous = randomSecret();
    const d = serviceDelivery({ previous });
    const pair = await nobleKeyPair();
    const a = await v1aDelivery(pair);
    const tampered = d.body.replace('ct_1', 'ct_2');
    const cases: Case[] = [
      { body: d.body, headers: onlySwitchboard(d.headers), key: d.secret, nowMs },
      { body: d.body, headers: onlyStandard(d.headers), key: d.secret, nowMs, fetchHeaders: true },
      { body: d.body, headers: onlySwitchboard(d.headers), key: [randomSecret(), previous], nowMs },
      { body: a.body, headers: a.headers, key: pair.publicKey, nowMs, fetchHeaders: true },
      { body: tampered, headers: onlySwitchboard(d.headers), key: d.secret, nowMs },
      { body: tampered, headers: onlyStandard(d.headers), key: d.secret, nowMs },
      { body: a.body + ' ', headers: a.headers, key: pair.publicKey, nowMs },
      { body: a.body, headers: a.headers, key: pair.publicKey, nowMs: nowMs + 301_000 },
      { body: d.body, headers: d.headers, key: 'whpk_' + 'A'.repeat(40), nowMs },
      { body: d.body, headers: {}, key: d.secret, nowMs },
    ];
    const refused = (reason: string) => ({ error: 'WebhookVerificationError', reason, isClass: true });
    expect(await verifyInPage(cases)).toEqual([
      { id: d.id },
      { id: d.id },
      { id: d.id },
      { id: a.id },
      refused('no_matching_signature'),
      refused('no_matching_signature'),
      refused('no_matching_signature'),
      refused('outside_tolerance'),
      refused('malformed_key'),
      refused('missing_header'),
    ]);
    expect(problems).toEqual([]);
  });
});
