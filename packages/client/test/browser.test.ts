import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBrowser } from '../../../test/helpers/browser.js';
import { openPageContext } from '../../../test/helpers/dashboard-browser.js';
import { setupAccount } from '../../../test/helpers/setup-account.js';
import { createTestContext, type TestContext } from '../../../test/helpers/test-context.js';
import { transpiledModules } from '../../../test/helpers/transpiled-modules.js';
import { startFront, type Front } from './front.js';

// The client where only the web's globals exist: its TypeScript source, transpiled file by file as the build emits
// it, imported by a page in headless chromium (every other origin blocked) from the same 127.0.0.1 origin that
// passes its calls on to the API (./front.ts). No Buffer, no process, no node: module is there, so a client that
// reached for one would fail here.

type Library = typeof import('@switchboard/client');

const PAGE = `<!doctype html><title>client</title>
<script type="module">import * as lib from '/lib/index.js'; globalThis.client = lib;</script>`;

let t: TestContext;
let front: Front;
let browser: Browser | null = null;
let page: Page;
let token: string;
let problems: string[] = [];

beforeAll(async () => {
  const found = await getBrowser();
  if (found.skip) console.warn(`client-browser: skipped: ${found.skip}`);
  browser = found.browser;
  t = await createTestContext();
  token = (await setupAccount(t)).token;
  const files = new Map(
    [...transpiledModules(fileURLToPath(new URL('../src/', import.meta.url)), '/lib')].map(([path, body]) => [
      path,
      { type: 'text/javascript', body },
    ]),
  );
  files.set('/', { type: 'text/html', body: PAGE });
  front = await startFront(t.url, files);
  if (!browser) return;
  ({ page, problems } = await openPageContext(browser, front.url));
  await page.goto(`${front.url}/`);
  await page
    .waitForFunction(() => 'client' in globalThis, undefined, { timeout: 30_000 })
    .catch((err: Error) => {
      throw new Error(`the client did not load: ${problems.join('; ') || err.message}`);
    });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await front?.close();
  await t?.close();
});

describe('in a browser, with fetch and WebCrypto only', () => {
  it('creates a subscription, sends it a test event, lists its deliveries and reads a refusal', async (ctx) => {
    if (!browser) return ctx.skip();
    const before = front.seen.length;
    const result = await page.evaluate(
      async ({ token, origin }) => {
        const { createClient, paginate, SwitchboardError } = (globalThis as unknown as { client: Library }).client;
        const sb = createClient({ baseUrl: origin, token });
        const webhook = await sb.createWebhook({
          body: { url: 'https://example.com/hooks', events: ['contact.created'] },
        });
        await sb.sendWebhookTest({ path: { webhookId: webhook.id } });
        const deliveries = [];
        for await (const d of paginate(sb.listWebhookDeliveries, { path: { webhookId: webhook.id } }))
          deliveries.push(d.event);
        const refused = await sb.getWebhook({ path: { webhookId: 'wh_nothere' } }).catch((e: unknown) => e);
        return {
          globals: [
            typeof (globalThis as Record<string, unknown>).Buffer,
            typeof (globalThis as Record<string, unknown>).process,
          ],
          secret: webhook.secret,
          deliveries,
          refused:
            refused instanceof SwitchboardError ? { status: refused.status, code: refused.code } : String(refused),
        };
      },
      { token, origin: front.url },
    );
    expect(result).toEqual({
      globals: ['undefined', 'undefined'],
      secret: expect.stringMatching(/^whsec_/),
      deliveries: ['webhook.test'],
      refused: { status: 404, code: 'not_found' },
    });
    const creating = front.seen.slice(before).filter((s) => s.method === 'POST');
    expect(creating.map((s) => s.idempotencyKey)).toEqual([
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      expect.stringMatching(/^[0-9a-f-]{36}$/),
    ]);
    // The one failed request is the refusal the test asked for.
    expect(problems).toEqual([`404 for ${front.url}/v1/webhooks/wh_nothere`]);
  });
});
