import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createBenchEnv } from '../bench/bench-env.js';
import { startServer } from '../src/http/server.js';
import { startWorkers } from '../workers/index.js';
import { getBrowser } from '../test/helpers/browser.js';

// `npm run docs:screenshots`: the pictures of docs/dashboard.md. A fresh database on the local Postgres and Redis
// (DATABASE_URL / REDIS_URL, else the defaults), the service with its workers, a receiver on 127.0.0.1 that fails
// one delivery in three, a little traffic through the API, then each page in headless chromium, saved as PNG into
// docs/dashboard/. Everything it created is dropped at the end.

type Answer = { id: string; url: string; session: { token: string } };

const OUT = join(import.meta.dirname, '..', 'docs', 'dashboard');
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function main() {
  const env = createBenchEnv(databaseUrl, redisUrl, `shots${process.pid}`);
  const { deps, close } = await env.createDeps({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  const server = await startServer(deps, 0, '127.0.0.1');
  const workers = await startWorkers(deps, { schedule: false });
  let hits = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    hits += 1;
    const fail = hits % 3 === 0;
    res.writeHead(fail ? 503 : 200, { 'content-type': 'application/json' });
    res.end(fail ? '{"error":"busy, try later"}' : '{"ok":true}');
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/switchboard`;
  const { browser, skip } = await getBrowser();
  if (!browser) throw new Error(skip);
  try {
    const call = async (method: string, path: string, token?: string, body?: unknown): Promise<Answer> => {
      const res = await fetch(server.url + path, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await res.json()) as Answer;
    };
    const email = 'ada@example.com';
    const password = 'correct horse battery';
    const signup = await call('POST', '/v1/auth/signup', undefined, { accountName: 'Acme', email, password });
    const token = signup.session.token as string;
    await call('POST', '/v1/api_keys', token, { name: 'CI deploys', scopes: ['read:webhooks', 'write:webhooks'] });
    await call('POST', '/v1/team/members', token, { email: 'bo@example.com', password, role: 'member' });
    const agent = await call('POST', '/v1/agents', token, { name: 'Support bot' });
    await call('POST', `/v1/agents/${agent.id}/api-keys`, token, { name: 'voice bridge' });
    const hook = await call('POST', '/v1/webhooks', token, {
      url: hookUrl,
      events: ['message.received', 'message.sent'],
      rateLimitPerSecond: 20,
      tenant: 'globex',
    });
    await call('POST', '/v1/webhooks', token, {
      url: `${hookUrl}/billing`,
      events: ['message.sent'],
      tenant: 'globex',
    });
    await call('POST', '/v1/webhooks', token, {
      url: `${hookUrl}/initech`,
      events: ['inbox.created'],
      tenant: 'initech',
    });
    const link = await call('POST', '/v1/portal-links', token, {
      tenant: 'globex',
      events: ['message.received', 'message.sent'],
    });
    for (let i = 0; i < 9; i++) await call('POST', `/v1/webhooks/${hook.id}/test`, token);
    for (let i = 0; i < 200 && hits < 9; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 600)); // the stats recorder's 200 ms window, and the attempt rows

    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    await context.route('**/*', (route) =>
      route.request().url().startsWith(server.url) || route.request().url().startsWith('data:')
        ? route.continue()
        : route.abort(),
    );
    const page = await context.newPage();
    const shot = (name: string) => page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
    await page.goto(`${server.url}/dashboard/sign-in`);
    await shot('sign-in');
    await page.fill('#email', email);
    await page.fill('#password', password);
    await page.click('button[type=submit]');
    await shot('subscriptions');
    // The create form with a broker kind chosen: that kind's own fields shown, the others' hidden.
    await page.check('input[name=kind][value=rabbitmq]');
    await page.locator('form[data-create]').screenshot({ path: join(OUT, 'subscription-create.png') });
    await page.goto(`${server.url}/dashboard/webhooks/${hook.id}`);
    await shot('subscription');
    await page.click('button:text("Rotate secret")');
    await shot('secret-shown-once');
    await page.goto(`${server.url}/dashboard/webhooks/${hook.id}?status=exhausted`);
    await page.goto(`${server.url}/dashboard/webhooks/${hook.id}`);
    await page.click('td a');
    await shot('delivery');
    await page.goto(`${server.url}/dashboard/keys`);
    await shot('keys');
    await page.goto(`${server.url}/dashboard/agents`);
    await shot('agents');
    await page.goto(`${server.url}/dashboard/portal-links`);
    await shot('portal-links');
    await page.goto(link.url);
    await shot('portal');
    await page.goto(`${link.url}/webhooks/${hook.id}`);
    await shot('portal-endpoint');
    await page.goto(`${server.url}/dashboard/webhooks`);
    await page.click('button:text("Sign out")');
    await page.fill('#email', 'bo@example.com');
    await page.fill('#password', password);
    await page.click('button[type=submit]');
    await page.goto(`${server.url}/dashboard/keys`);
    await shot('keys-as-member');
    await context.close();
    process.stdout.write(`screenshots written to ${OUT}\n`);
  } finally {
    await browser.close();
    receiver.close();
    await workers.close();
    await server.close();
    await close();
    await env.dropAll();
  }
}

await main();
